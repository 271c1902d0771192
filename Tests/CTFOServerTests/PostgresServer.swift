import CTFOServer
import Foundation
import Synchronization
import TestFixtures
import Testing

/// A PostgreSQL 15 of the tests' own: `initdb` in a temporary folder, `pg_ctl` listening only
/// on a Unix socket in that folder, stopped when the suite ends. Run as the `postgres` user
/// when the tests run as root (PostgreSQL refuses root); each test gets a database of its own.
final class PostgresServer: Sendable {
  static let binaries = "/usr/lib/postgresql/15/bin"
  let folder: String
  private let counter = Counter()

  /// Starts a server; throws, saying why, when it cannot.
  init() throws {
    let base = FileManager.default.temporaryDirectory.path
    folder = base + "/ctfo-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    if getuid() == 0 {
      guard let user = getpwnam("postgres") else {
        throw Failure("the tests run as root and there is no postgres user to run PostgreSQL")
      }
      guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
        throw Failure("cannot give \(folder) to the postgres user")
      }
    }
    try Self.run(
      "initdb", ["-D", folder + "/data", "-U", "ctfo", "--auth=trust", "-E", "UTF8", "--no-sync"],
      asServer: true)
    try Self.run(
      "pg_ctl",
      [
        "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
        "-k \(folder) -c listen_addresses='' -c fsync=off", "start",
      ], asServer: true)
  }

  /// Stops the server and removes its folder.
  func stop() {
    _ = try? Self.run(
      "pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asServer: true)
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Stops the server at once, as a crash or a lost network would, keeping its data.
  func pause() throws {
    try Self.run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asServer: true)
  }

  /// Starts the server `pause` stopped; returns once it accepts connections.
  func resume() throws {
    try Self.run(
      "pg_ctl",
      [
        "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
        "-k \(folder) -c listen_addresses='' -c fsync=off", "start",
      ], asServer: true)
  }

  /// A new empty database's URL.
  func newDatabase() throws -> String {
    let name = "t\(counter.next())"
    try Self.run("createdb", ["-h", folder, "-U", "ctfo", name], asServer: false)
    return url(name)
  }

  /// The URL of the database `name`, through the server's socket.
  func url(_ name: String) -> String {
    "postgres://ctfo@" + folder.replacingOccurrences(of: "/", with: "%2F") + ":5432/" + name
  }

  /// Runs one of PostgreSQL's programs, as the postgres user when `asServer` and the tests run
  /// as root; throws with its output when it fails.
  @discardableResult
  static func run(_ program: String, _ arguments: [String], asServer: Bool) throws -> String {
    let command =
      asServer && getuid() == 0
      ? ["/usr/sbin/runuser", "-u", "postgres", "--", binaries + "/" + program] + arguments
      : [binaries + "/" + program] + arguments
    guard FileManager.default.isExecutableFile(atPath: binaries + "/" + program) else {
      throw Failure(
        "no \(binaries)/\(program): PostgreSQL 15 is needed (scripts/install-deps.sh installs "
          + "postgresql-15)")
    }
    let (status, text) = try spawn(command)
    guard status == 0 else { throw Failure("\(program) failed (status \(status)): \(text)") }
    return text
  }

  /// Runs `command` to its end with its output in a file, not a pipe (the server pg_ctl starts
  /// would keep a pipe open), reaped with `waitpid`: its exit status and output.
  static func spawn(_ command: [String]) throws -> (Int32, String) {
    let log = FileManager.default.temporaryDirectory.path + "/ctfo-pg-run-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: log) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = command.map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw Failure("cannot run \(command[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
      value.withLock {
        $0 += 1
        return $0
      }
    }
  }
}

/// The suite's PostgreSQL: started before its tests, stopped after. When it cannot start, the
/// PostgreSQL half of every test fails with the reason (CI installs PostgreSQL; nothing skips).
struct WithPostgres: SuiteTrait, TestScoping {
  @TaskLocal static var server: Result<PostgresServer, any Error>?

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let started = Result { try PostgresServer() }
    defer { if case .success(let server) = started { server.stop() } }
    try await Self.$server.withValue(started) { try await function() }
  }
}

/// The stores every conformance test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite, postgres

  var testDescription: String { rawValue }

  /// Runs `body` with a new empty store of this kind, closed after.
  func withStore(_ body: (any CardStore) async throws -> Void) async throws {
    try await withStores(1) { try await body($0[0]) }
  }

  /// Runs `body` with `count` stores on one new place (one file, one database), as several
  /// server processes open it, closed after.
  func withStores(_ count: Int, _ body: ([any CardStore]) async throws -> Void) async throws {
    switch self {
    case .sqlite:
      let folder = try TemporaryFolder("ctfo-server-store")
      let stores = try (0..<count).map { _ in
        try SQLiteCardStore(path: folder.path("server.sqlite"))
      }
      try await body(stores)
    case .postgres:
      let url = try Self.postgres().newDatabase()
      var stores: [PostgresCardStore] = []
      do {
        for _ in 0..<count { stores.append(try await PostgresCardStore.open(url: url)) }
        try await body(stores)
      } catch {
        for store in stores { await store.close() }
        throw error
      }
      for store in stores { await store.close() }
    }
  }

  /// Opens a store, marks its schema one version past this build's as a newer ctfo-server
  /// would, and opens it again: what that second opening throws.
  func reopeningANewerStore() async throws -> (any Error)? {
    switch self {
    case .sqlite:
      let folder = try TemporaryFolder("ctfo-server-store")
      let path = folder.path("server.sqlite")
      _ = try SQLiteCardStore(path: path)
      try runTool(
        "/usr/bin/sqlite3", [path, "PRAGMA user_version = \(SQLiteCardStore.schemaVersion + 1)"])
      do {
        _ = try SQLiteCardStore(path: path)
        return nil
      } catch { return error }
    case .postgres:
      let server = try Self.postgres()
      let url = try server.newDatabase()
      try await withPostgresStore(url: url) { _ in }
      let name = String(url.split(separator: "/").last ?? "")
      try PostgresServer.run(
        "psql",
        [
          "-h", server.folder, "-U", "ctfo", "-d", name, "-v", "ON_ERROR_STOP=1", "-c",
          "UPDATE schema_version SET version = \(PostgresCardStore.schemaVersion + 1)",
        ], asServer: false)
      do {
        try await withPostgresStore(url: url) { _ in }
        return nil
      } catch { return error }
    }
  }

  /// The suite's PostgreSQL server, or why there is none.
  static func postgres() throws -> PostgresServer {
    guard let server = WithPostgres.server else {
      throw PostgresServer.Failure("the suite has no WithPostgres trait")
    }
    return try server.get()
  }
}

/// Runs `body` with the PostgreSQL store at `url`, closed after.
func withPostgresStore(url: String, _ body: (any CardStore) async throws -> Void) async throws {
  let store = try await PostgresCardStore.open(url: url)
  do {
    try await body(store)
  } catch {
    await store.close()
    throw error
  }
  await store.close()
}

/// Runs a program to its end; throws with its output when it fails.
func runTool(_ path: String, _ arguments: [String]) throws {
  let (status, text) = try PostgresServer.spawn([path] + arguments)
  guard status == 0 else { throw PostgresServer.Failure("\(path) failed: \(text)") }
}
