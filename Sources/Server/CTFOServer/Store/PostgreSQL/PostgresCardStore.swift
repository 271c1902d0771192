import Logging
import PostgresNIO
import Synchronization

/// The server's store in PostgreSQL, for several server processes on one database: the same
/// rows and meaning as `SQLiteCardStore`, each change stamped with the next revision.
///
/// A write that takes a revision locks the one `state` row first, so revisions are taken and
/// committed in one order by every process; a pull reads in one snapshot.
public final class PostgresCardStore: CardStore {
  /// The connection pool in use, its runner, and when it was made (`renew`).
  private let pool: Mutex<Pool>
  private typealias Pool = (
    client: PostgresClient, runner: Task<Void, Never>, madeAt: ContinuousClock.Instant
  )
  private let configuration: PostgresClient.Configuration
  let shown: String
  var client: PostgresClient { pool.withLock { $0.client } }
  let knownEpoch = Mutex<String?>(nil)
  let reads = PullReads()
  let knownTokens = KnownTokens()
  /// How the personaliser scores (Personalisation/); a simulation sets it.
  let personalisationSettings = Mutex(PersonalisationSettings())
  static let logger: Logger = {
    var logger = Logger(label: "ctfo-server.postgres")
    logger.logLevel = .error
    return logger
  }()

  /// Connects to the database `url` names (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`, the
  /// host a socket's folder when it starts with `/` or `%2F`) and applies the migrations it
  /// lacks; a database migrated by a newer build is refused.
  public static func open(url: String) async throws -> PostgresCardStore {
    let address = try PostgresAddress(url)
    try await reach(address)
    let store = try PostgresCardStore(address: address)
    do {
      try await store.migrate()
    } catch {
      await store.close()
      throw error
    }
    return store
  }

  /// Connects once, alone, so that a server down, a wrong database or user is one clear error
  /// at once (the pool would try again and again, and a command would wait in silence).
  private static func reach(_ address: PostgresAddress) async throws {
    var configuration = try address.configuration(PostgresConnection.Configuration.self)
    configuration.options.connectTimeout = .seconds(10)
    do {
      let connection = try await PostgresConnection.connect(
        configuration: configuration, id: 0, logger: logger)
      try await connection.close()
    } catch {
      throw CardStoreError.unreachable(store: address.shown, reason: Self.reason(error))
    }
  }

  /// What went wrong, in the server's words or the socket's.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] { return message }
    if let underlying = error.underlying { return "\(underlying)" }
    return "\(error.code)"
  }

  private init(address: PostgresAddress) throws {
    var configuration = try address.configuration(PostgresClient.Configuration.self)
    configuration.options.maximumConnections = 8
    configuration.options.connectTimeout = .seconds(3)
    self.configuration = configuration
    let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
    pool = Mutex((client, Task { await client.run() }, .now))
    shown = address.shown
  }

  /// Replaces the connection pool with a new one, unless the one in use is less than a second
  /// old: a pool that met an outage waits longer and longer between its attempts to connect
  /// (up to a minute), where a new one tries at once. The old pool's connections close.
  func renew() {
    let configuration = configuration
    let retired = pool.withLock { pool -> Task<Void, Never>? in
      guard ContinuousClock.now - pool.madeAt >= .seconds(1) else { return nil }
      let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
      let old = pool.runner
      pool = (client, Task { await client.run() }, .now)
      return old
    }
    retired?.cancel()
  }

  /// This store with every call given `deadline` (past it, the caller gets an error: `503`
  /// for a request), and the pool renewed after a failure to reach the database.
  public func guarded(deadline: Duration = .seconds(5)) -> any CardStore {
    GuardedStore(base: self, deadline: deadline) { [self] error in
      // An error the server reported (a query refused) says the database is there.
      if (error as? PSQLError)?.serverInfo == nil { renew() }
    }
  }

  /// Closes the connections; the store answers nothing after. Waits two seconds at most:
  /// the client's `run()` has been seen to outlive its cancellation, and a stopped server must
  /// exit all the same.
  public func close() async {
    let runner = pool.withLock { $0.runner }
    runner.cancel()
    // Unstructured: a task group would wait for the child still awaiting `run()`.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiting = Mutex<CheckedContinuation<Void, Never>?>(continuation)
      let resume: @Sendable () -> Void = { waiting.withLock { $0.take() }?.resume() }
      Task {
        await runner.value
        resume()
      }
      Task {
        try? await Task.sleep(for: .seconds(2))
        resume()
      }
    }
  }
}

extension PostgresConnection {
  /// The rows of `query`, read to the end.
  func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
    try await self.query(query, logger: PostgresCardStore.logger).collect()
  }

  /// Runs `query`, its rows (if any) read and dropped.
  func run(_ query: PostgresQuery) async throws {
    _ = try await rows(query)
  }
}
