import CTFOWire
import CardText
import Logging
import NIOSSL
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
  private let shown: String
  var client: PostgresClient { pool.withLock { $0.client } }
  private let knownEpoch = Mutex<String?>(nil)
  private let reads = PullReads()
  private let knownTokens = KnownTokens()
  static let logger: Logger = {
    var logger = Logger(label: "ctfo-server.postgres")
    logger.logLevel = .error
    return logger
  }()

  /// Connects to the database `url` names (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`, the
  /// host a socket's folder when it starts with `/` or `%2F`) and applies the migrations it
  /// lacks; a database migrated by a newer build is refused.
  public static func open(url: String) async throws -> PostgresCardStore {
    try await reach(PostgresAddress(url))
    let store = try PostgresCardStore(url: url)
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
    var configuration: PostgresConnection.Configuration
    if let socket = address.socket {
      configuration = .init(
        unixSocketPath: socket, username: address.user, password: address.password,
        database: address.database)
    } else {
      configuration = .init(
        host: address.host, port: address.port, username: address.user,
        password: address.password, database: address.database,
        tls: address.tls
          ? .prefer(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable)
    }
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

  private init(url: String) throws {
    let address = try PostgresAddress(url)
    var configuration: PostgresClient.Configuration
    if let socket = address.socket {
      configuration = .init(
        unixSocketPath: socket, username: address.user, password: address.password,
        database: address.database)
    } else {
      configuration = .init(
        host: address.host, port: address.port, username: address.user,
        password: address.password, database: address.database,
        tls: address.tls ? .prefer(.makeClientConfiguration()) : .disable)
    }
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

  // MARK: - Schema

  /// The migrations, each a list of statements; `schema_version` holds how many are applied.
  /// A shipped one is never edited.
  private static let migrations: [[PostgresQuery]] = [
    [
      """
      CREATE TABLE state (
        id INTEGER PRIMARY KEY CHECK (id = 1), epoch TEXT NOT NULL, revision BIGINT NOT NULL,
        shared_revision BIGINT NOT NULL)
      """,
      """
      CREATE TABLE types (
        name TEXT COLLATE "C" PRIMARY KEY, label TEXT, colour TEXT, description TEXT,
        revision BIGINT NOT NULL, removed INTEGER NOT NULL DEFAULT 0)
      """,
      """
      CREATE TABLE cards (
        id TEXT COLLATE "C" PRIMARY KEY, type TEXT COLLATE "C" NOT NULL, title TEXT,
        body TEXT NOT NULL, source TEXT, url TEXT, reveal TEXT, published_at BIGINT NOT NULL,
        revision BIGINT NOT NULL, removed INTEGER NOT NULL DEFAULT 0)
      """,
      "CREATE INDEX cards_by_revision ON cards (revision)",
      """
      CREATE TABLE scores (
        card_id TEXT COLLATE "C" PRIMARY KEY, score DOUBLE PRECISION NOT NULL,
        scored_at BIGINT NOT NULL, revision BIGINT NOT NULL)
      """,
      "CREATE INDEX scores_by_revision ON scores (revision)",
      """
      CREATE TABLE installs (
        install_id TEXT COLLATE "C" PRIMARY KEY, distinct_id TEXT NOT NULL,
        revision BIGINT NOT NULL DEFAULT 0, status TEXT)
      """,
      // One live token per install: the key is the install.
      """
      CREATE TABLE tokens (
        install_id TEXT COLLATE "C" PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
        expires_at BIGINT NOT NULL)
      """,
      "CREATE INDEX tokens_by_expiry ON tokens (expires_at)",
      """
      CREATE TABLE notifications (
        id TEXT COLLATE "C" PRIMARY KEY, text TEXT NOT NULL, created_at BIGINT NOT NULL,
        revision BIGINT NOT NULL)
      """,
      """
      CREATE TABLE events (
        seq BIGSERIAL PRIMARY KEY, sink TEXT NOT NULL, owner TEXT NOT NULL,
        insert_id TEXT NOT NULL, name TEXT COLLATE "C" NOT NULL, distinct_id TEXT NOT NULL,
        install_id TEXT, time BIGINT NOT NULL, payload TEXT NOT NULL,
        received_at BIGINT NOT NULL, copies INTEGER NOT NULL DEFAULT 1,
        UNIQUE (sink, owner, insert_id))
      """,
      "CREATE INDEX events_by_arrival ON events (received_at)",
      "CREATE INDEX events_by_install ON events (install_id)",
      """
      CREATE TABLE seen (
        install_id TEXT NOT NULL, card_id TEXT NOT NULL, PRIMARY KEY (install_id, card_id))
      """,
      """
      CREATE TABLE reactions (
        install_id TEXT NOT NULL, card_id TEXT NOT NULL, type TEXT NOT NULL,
        reaction TEXT COLLATE "C" NOT NULL, time BIGINT NOT NULL,
        PRIMARY KEY (install_id, card_id))
      """,
      """
      CREATE TABLE user_scores (
        install_id TEXT NOT NULL, card_id TEXT COLLATE "C" NOT NULL,
        score DOUBLE PRECISION NOT NULL, scored_at BIGINT NOT NULL, reason TEXT,
        revision BIGINT NOT NULL, PRIMARY KEY (install_id, card_id))
      """,
      "CREATE INDEX user_scores_by_revision ON user_scores (install_id, revision)",
    ],
    // Requests per install and minute, summed over the server processes (`SharedRates`).
    [
      """
      CREATE TABLE request_counts (
        install_id TEXT NOT NULL, window_start BIGINT NOT NULL, count BIGINT NOT NULL,
        PRIMARY KEY (install_id, window_start))
      """
    ],
    // The dashboard's aggregates, kept as events arrive (`DashboardData`), begun from the
    // events stored so far; a card's reactions from the installs' latest.
    [
      "CREATE TABLE dash_hours (hour BIGINT PRIMARY KEY, events BIGINT NOT NULL)",
      """
      CREATE TABLE dash_names (
        sink TEXT NOT NULL, name TEXT COLLATE "C" NOT NULL, events BIGINT NOT NULL,
        PRIMARY KEY (sink, name))
      """,
      """
      CREATE TABLE dash_cards (
        card_id TEXT COLLATE "C" PRIMARY KEY, type TEXT COLLATE "C" NOT NULL,
        ctfo BIGINT NOT NULL DEFAULT 0, tfu BIGINT NOT NULL DEFAULT 0,
        tifb BIGINT NOT NULL DEFAULT 0)
      """,
      "CREATE TABLE dash_installs (install_id TEXT PRIMARY KEY, last_seen BIGINT NOT NULL)",
      "CREATE INDEX dash_installs_by_time ON dash_installs (last_seen)",
      """
      CREATE TABLE dash_refused (
        sink TEXT PRIMARY KEY, records BIGINT NOT NULL DEFAULT 0,
        requests BIGINT NOT NULL DEFAULT 0)
      """,
      "INSERT INTO dash_hours SELECT received_at / 3600000, COUNT(*) FROM events GROUP BY 1",
      "INSERT INTO dash_names SELECT sink, name, COUNT(*) FROM events GROUP BY 1, 2",
      """
      INSERT INTO dash_installs SELECT install_id, MAX(received_at) FROM events
      WHERE install_id IS NOT NULL GROUP BY 1
      """,
      """
      INSERT INTO dash_cards SELECT card_id, MIN(type), COUNT(*) FILTER (WHERE reaction = 'CTFO'),
        COUNT(*) FILTER (WHERE reaction = 'TFU'), COUNT(*) FILTER (WHERE reaction = 'TIFB')
      FROM reactions GROUP BY card_id
      """,
    ],
    // A reaction is kept only for a served card, under the card's type (not the one a client
    // named), and found by type for scoring; the dashboard counts each install's final
    // reaction once.
    [
      "DELETE FROM reactions r WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = r.card_id)",
      "UPDATE reactions r SET type = c.type FROM cards c WHERE c.id = r.card_id",
      "CREATE INDEX reactions_by_type ON reactions (install_id, type)",
      "DELETE FROM dash_cards",
      """
      INSERT INTO dash_cards SELECT card_id, MIN(type), COUNT(*) FILTER (WHERE reaction = 'CTFO'),
        COUNT(*) FILTER (WHERE reaction = 'TFU'), COUNT(*) FILTER (WHERE reaction = 'TIFB')
      FROM reactions GROUP BY card_id
      """,
    ],
  ]

  /// The schema version this build migrates to.
  public static var schemaVersion: Int { migrations.count }

  /// Serialises migrations of every process on the database (`pg_advisory_xact_lock`).
  private static let migrationLock: Int64 = 0x6374_666f_6d69_6772

  /// Applies the migrations not yet applied, in one transaction under a lock every process
  /// takes to migrate; returns the schema version before.
  @discardableResult
  public func migrate() async throws -> Int {
    do {
      return try await migrateOnce()
    } catch let error as PostgresTransactionError {
      // The refusal of a newer schema, not the transaction that it rolled back.
      if let refusal = error.closureError as? CardStoreError { throw refusal }
      throw error
    }
  }

  private func migrateOnce() async throws -> Int {
    let store = shown
    return try await client.withTransaction(logger: Self.logger) { db in
      try await db.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
      try await db.run(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
      let version = try await Self.version(db)
      let known = Self.migrations.count
      guard version <= known else {
        throw CardStoreError.newerSchema(store: store, version: version, known: known)
      }
      guard version < known else { return version }
      for migration in Self.migrations[version...] {
        for statement in migration { try await db.run(statement) }
      }
      try await db.run("DELETE FROM schema_version")
      try await db.run("INSERT INTO schema_version (version) VALUES (\(known))")
      let epoch = Token.random(bytes: 6)
      try await db.run(
        """
        INSERT INTO state (id, epoch, revision, shared_revision) VALUES (1, \(epoch), 0, 0)
        ON CONFLICT (id) DO NOTHING
        """)
      return version
    }
  }

  private static func version(_ db: PostgresConnection) async throws -> Int {
    Int(
      try await db.rows("SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_version")
        .first?.decode(Int64.self) ?? 0)
  }

  // MARK: - Revisions

  public func revision(install: String?, feed: PullFeed) async throws -> Int64 {
    let install = feed == .hot ? install : nil
    let generation = reads.revisions.generation
    let revision = try await client.withConnection { db in
      try await db.rows(
        """
        SELECT GREATEST(shared_revision, COALESCE((SELECT revision FROM installs
          WHERE install_id = \(install)), 0)) FROM state
        """
      ).first?.decode(Int64.self) ?? 0
    }
    reads.revisions.remember(
      revision, for: PullReads.Key(install: install, feed: feed), readAt: generation)
    return revision
  }

  // MARK: - At once

  public func epochAtOnce() -> String? { knownEpoch.withLock { $0 } }

  /// The revision read last, when it was read less than a second ago: a change by any
  /// process reaches a pull answered at once within that second (this process forgets what it
  /// read when it changes the store).
  public func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? {
    reads.revisions.value(for: PullReads.Key(install: feed == .hot ? install : nil, feed: feed))
  }

  public func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? {
    knownTokens.install(Token.hex(hash), at: time)
  }

  /// The store's epoch, made with the store and never changed: read once.
  public func epoch() async throws -> String {
    if let known = knownEpoch.withLock({ $0 }) { return known }
    let epoch = try await client.withConnection { db in
      try await db.rows("SELECT epoch FROM state").first?.decode(String.self) ?? ""
    }
    knownEpoch.withLock { $0 = epoch }
    return epoch
  }

  /// Runs `body` in a transaction with the next revision, holding the lock on it; the
  /// revision is kept only if `body` changed something, and stamped on `install` when only
  /// that install receives the change, else on what every client receives.
  func changing<T: Sendable>(
    for install: String? = nil,
    _ body: (PostgresConnection, Int64) async throws -> (T, changed: Bool)
  ) async throws -> T {
    defer { reads.forget() }
    return try await client.withTransaction(logger: Self.logger) { db in
      let next =
        (try await db.rows("SELECT revision FROM state FOR UPDATE").first?.decode(Int64.self)
          ?? 0) + 1
      let (result, changed) = try await body(db, next)
      if changed {
        try await db.run("UPDATE state SET revision = \(next)")
        if let install {
          try await db.run("UPDATE installs SET revision = \(next) WHERE install_id = \(install)")
        } else {
          try await db.run("UPDATE state SET shared_revision = \(next)")
        }
      }
      return result
    }
  }

  // MARK: - Pulls

  public func changes(
    since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?
  ) async throws -> Changes {
    try await client.withTransaction(logger: Self.logger) { db in
      try await db.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
      let since = revision ?? -1
      var changes = Changes(full: revision == nil)
      for row in try await db.rows(
        """
        SELECT name, label, colour, description FROM types WHERE revision > \(since)
          AND removed = 0 ORDER BY name
        """)
      {
        let (name, label, colour, description) = try row.decode(
          (String, String?, String?, String?).self)
        changes.types.append(
          Wire.CardType(name: name, label: label, colour: colour, description: description))
      }
      let order =
        feed == .hot
        ? "ORDER BY s.score IS NULL, s.score DESC, c.id" : "ORDER BY c.published_at DESC, c.id"
      for row in try await db.rows(
        """
        SELECT c.id, c.type, c.title, c.body, c.source, c.url, c.reveal, c.published_at,
          c.removed FROM cards c LEFT JOIN scores s ON s.card_id = c.id
          WHERE c.revision > \(since) \(unescaped: order)
        """)
      {
        let (id, type, title, body, source, url, reveal, published, removed) = try row.decode(
          (String, String, String?, String?, String?, String?, String?, Int64, Int32).self)
        if removed != 0 {
          if revision != nil { changes.removed.append(id) }
          continue
        }
        var card = Wire.Card(
          id: id, type: type, title: title, body: body, source: source, url: url,
          reveal: reveal, publishedAt: published)
        if let body, body.utf8.count > bodyLimit {
          card.body = nil
          card.bodyOmitted = true
        }
        changes.cards.append(card)
      }
      if feed == .hot {
        for row in try await db.rows(
          """
          SELECT s.card_id, s.score, s.scored_at FROM scores s JOIN cards c ON c.id = s.card_id
          WHERE s.revision > \(since) AND c.removed = 0 ORDER BY s.card_id
          """)
        {
          let (card, score, time) = try row.decode((String, Double, Int64).self)
          changes.scores.append(Wire.Score(cardId: card, score: score, scoredAt: time))
        }
        if let install {
          for row in try await db.rows(
            """
            SELECT u.card_id, u.score, u.scored_at, u.reason FROM user_scores u
            JOIN cards c ON c.id = u.card_id
            WHERE u.install_id = \(install) AND u.revision > \(since) AND c.removed = 0
            ORDER BY u.card_id
            """)
          {
            let (card, score, time, reason) = try row.decode((String, Double, Int64, String?).self)
            changes.scores.append(
              Wire.Score(cardId: card, score: score, scoredAt: time, reason: reason))
          }
        }
      } else {
        changes.scores = changes.cards.map { card in
          let time = card.publishedAt ?? 0
          return Wire.Score(cardId: card.id, score: Double(time) / 1000, scoredAt: time)
        }
      }
      if let install {
        changes.userStatus =
          try await db.rows("SELECT status FROM installs WHERE install_id = \(install)")
          .first?.decode(String?.self) ?? nil
      }
      for row in try await db.rows(
        "SELECT id, text, created_at FROM notifications ORDER BY created_at DESC, id LIMIT 100")
      {
        let (id, text, created) = try row.decode((String, String, Int64).self)
        changes.notifications.append(Wire.Notification(id: id, text: text, createdAt: created))
      }
      return changes
    }
  }

  public func card(id: String) async throws -> Wire.Card? {
    try await client.withConnection { db in
      guard
        let row = try await db.rows(
          """
          SELECT id, type, title, body, source, url, reveal, published_at FROM cards
          WHERE id = \(id) AND removed = 0
          """
        ).first
      else { return nil }
      let (id, type, title, body, source, url, reveal, published) = try row.decode(
        (String, String, String?, String?, String?, String?, String?, Int64).self)
      return Wire.Card(
        id: id, type: type, title: title, body: body, source: source, url: url, reveal: reveal,
        publishedAt: published)
    }
  }

  // MARK: - Decks

  public func load(cards: [Wire.Card], types: [Wire.CardType]) async throws -> LoadReport {
    let now = Clock.milliseconds()
    return try await changing { db, revision in
      var report = LoadReport()
      var typesChanged = 0
      for type in types {
        typesChanged += try await db.rows(
          """
          INSERT INTO types (name, label, colour, description, revision)
          VALUES (\(type.name), \(type.label), \(type.colour), \(type.description), \(revision))
          ON CONFLICT (name) DO UPDATE SET label = excluded.label, colour = excluded.colour,
            description = excluded.description, revision = excluded.revision, removed = 0
          WHERE (types.label, types.colour, types.description, types.removed) IS DISTINCT FROM
            (excluded.label, excluded.colour, excluded.description, 0)
          RETURNING 1
          """
        ).count
      }
      for card in cards {
        let existed = try await db.rows("SELECT removed FROM cards WHERE id = \(card.id)")
          .first?.decode(Int32.self)
        let written = try await db.rows(
          """
          INSERT INTO cards (id, type, title, body, source, url, reveal, published_at, revision)
          VALUES (\(card.id), \(card.type), \(card.title), \(card.body ?? ""), \(card.source),
            \(card.url), \(card.reveal), \(now), \(revision))
          ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title,
            body = excluded.body, source = excluded.source, url = excluded.url,
            reveal = excluded.reveal, revision = excluded.revision, removed = 0,
            published_at = CASE WHEN cards.removed <> 0 THEN excluded.published_at
              ELSE cards.published_at END
          WHERE (cards.type, cards.title, cards.body, cards.source, cards.url, cards.reveal,
            cards.removed) IS DISTINCT FROM (excluded.type, excluded.title, excluded.body,
            excluded.source, excluded.url, excluded.reveal, 0)
          RETURNING 1
          """
        ).count
        if written > 0 {
          if existed == nil || existed == 1 { report.added += 1 } else { report.changed += 1 }
        }
      }
      let listed = cards.map(\.id)
      report.removed = try await db.rows(
        """
        UPDATE cards SET removed = 1, revision = \(revision)
        WHERE removed = 0 AND NOT (id = ANY(\(listed))) RETURNING 1
        """
      ).count
      return (report, report != LoadReport() || typesChanged > 0)
    }
  }

  // MARK: - Operators

  public func score(cardId: String, score: Double, at time: Int64) async throws -> Bool {
    try await changing { db, revision in
      let known = try await db.rows(
        "SELECT 1 FROM cards WHERE id = \(cardId) AND removed = 0"
      ).count
      guard known > 0 else { return (false, false) }
      try await db.run(
        """
        INSERT INTO scores (card_id, score, scored_at, revision)
        VALUES (\(cardId), \(score), \(time), \(revision))
        ON CONFLICT (card_id) DO UPDATE SET score = excluded.score,
          scored_at = excluded.scored_at, revision = excluded.revision
        """)
      return (true, true)
    }
  }

  public func notify(id: String, text: String, at time: Int64) async throws {
    try await changing { db, revision in
      try await db.run(
        """
        INSERT INTO notifications (id, text, created_at, revision)
        VALUES (\(id), \(text), \(time), \(revision))
        ON CONFLICT (id) DO UPDATE SET text = excluded.text, created_at = excluded.created_at,
          revision = excluded.revision
        """)
      return ((), true)
    }
  }

  public func setStatus(install: String, to status: String) async throws -> Bool {
    try await changing(for: install) { db, _ in
      let known =
        try await db.rows(
          "UPDATE installs SET status = \(status) WHERE install_id = \(install) RETURNING 1"
        ).count > 0
      return (known, known)
    }
  }

  // MARK: - Tokens

  /// Stores the install's one live token: any older one is revoked (the install is the
  /// tokens' key, so two processes issuing at once leave one).
  public func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) async throws
    -> String
  {
    let key = Token.hex(hash)
    let newDistinct = "d-" + Token.random(bytes: 8)
    let (distinct, revoked) = try await client.withTransaction(logger: Self.logger) { db in
      try await db.run(
        """
        INSERT INTO installs (install_id, distinct_id) VALUES (\(installId), \(newDistinct))
        ON CONFLICT (install_id) DO NOTHING
        """)
      let distinct =
        try await db.rows(
          "SELECT distinct_id FROM installs WHERE install_id = \(installId) FOR UPDATE"
        ).first?.decode(String.self) ?? ""
      var revoked: [String] = []
      for row in try await db.rows("SELECT hash FROM tokens WHERE install_id = \(installId)") {
        revoked.append(try row.decode(String.self))
      }
      try await db.run(
        """
        INSERT INTO tokens (install_id, hash, expires_at) VALUES (\(installId), \(key),
          \(expiresAt))
        ON CONFLICT (install_id) DO UPDATE SET hash = excluded.hash,
          expires_at = excluded.expires_at
        """)
      return (distinct, revoked)
    }
    knownTokens.forget(revoked)
    return distinct
  }

  /// The install of a token that has not expired at `time`. A token found is remembered for
  /// a second, so a client's requests in that second cost no query; a token revoked by any
  /// process is refused a second later at most.
  public func install(forToken hash: [UInt8], at time: Int64) async throws -> String? {
    let key = Token.hex(hash)
    if let known = knownTokens.install(key, at: time) { return known }
    let found = try await client.withConnection { db in
      try await db.rows(
        "SELECT install_id, expires_at FROM tokens WHERE hash = \(key) AND expires_at > \(time)"
      ).first?.decode((String, Int64).self)
    }
    if let found {
      knownTokens.remember(key, install: found.0, expiresAt: found.1, checkedAt: time)
    }
    return found?.0
  }

  public func prune(at time: Int64, eventsBefore: Int64?) async throws -> PruneReport {
    var report = PruneReport()
    report.tokens = try await client.withTransaction(logger: Self.logger) { db in
      let tokens = try await Self.count(
        """
        WITH d AS (DELETE FROM tokens WHERE expires_at <= \(time) RETURNING 1)
        SELECT COUNT(*) FROM d
        """, db)
      try await db.run("DELETE FROM request_counts WHERE window_start < \(time - 120_000)")
      // The dashboard's totals past what it shows: hours past its chart, installs past 30 days.
      let (hours, installs) = DashboardData.kept(at: time)
      try await db.run("DELETE FROM dash_hours WHERE hour < \(hours)")
      try await db.run("DELETE FROM dash_installs WHERE last_seen < \(installs)")
      return tokens
    }
    // In batches, each its own transaction, counted in the database: no transaction holds
    // the whole prune, and no row of it comes back to the server.
    let batch = Int64(SQLiteCardStore.pruneBatch)
    if let eventsBefore {
      while true {
        let deleted = try await client.withConnection { db in
          try await Self.count(
            """
            WITH d AS (DELETE FROM events WHERE seq IN (
              SELECT seq FROM events WHERE received_at < \(eventsBefore) LIMIT \(batch))
              RETURNING 1)
            SELECT COUNT(*) FROM d
            """, db)
        }
        report.events += deleted
        if deleted < batch { break }
      }
    }
    while true {
      let forgotten = try await client.withTransaction(logger: Self.logger) { db in
        var forgotten: [String] = []
        for row in try await db.rows(
          """
          DELETE FROM installs WHERE install_id IN (
            SELECT install_id FROM installs i
            WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.install_id = i.install_id)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.install_id = i.install_id)
            LIMIT \(batch / 10))
          RETURNING install_id
          """)
        {
          forgotten.append(try row.decode(String.self))
        }
        if !forgotten.isEmpty {
          for table in ["seen", "reactions", "user_scores"] {
            try await db.run(
              "DELETE FROM \(unescaped: table) WHERE install_id = ANY(\(forgotten))")
          }
        }
        return forgotten.count
      }
      report.installs += forgotten
      if forgotten < batch / 10 { break }
    }
    return report
  }

  /// The one count `query` answers.
  private static func count(_ query: PostgresQuery, _ db: PostgresConnection) async throws -> Int {
    Int(try await db.rows(query).first?.decode(Int64.self) ?? 0)
  }

  // MARK: - Rates

  public var sharesRequestCounts: Bool { true }

  public func addRequestCounts(_ counts: [String: Int], window: Int64) async throws
    -> [String: Int]
  {
    guard !counts.isEmpty else { return [:] }
    let installs = Array(counts.keys)
    let added = installs.map { Int64(counts[$0] ?? 0) }
    return try await client.withConnection { db in
      var totals: [String: Int] = [:]
      for row in try await db.rows(
        """
        INSERT INTO request_counts (install_id, window_start, count)
        SELECT install, \(window), added FROM UNNEST(\(installs)::text[], \(added)::bigint[])
          AS t(install, added)
        ON CONFLICT (install_id, window_start)
          DO UPDATE SET count = request_counts.count + excluded.count
        RETURNING install_id, count
        """)
      {
        let (install, count) = try row.decode((String, Int64).self)
        totals[install] = Int(count)
      }
      return totals
    }
  }

  // MARK: - Events

  public func record(events: [ReceivedEvent], install: String?, at time: Int64) async throws {
    guard !events.isEmpty else { return }
    let cards = install == nil ? [] : events.filter { $0.sink == "ctfo" && $0.cardID != nil }
    // A reaction counts only for a served card, under the card's own type: the types a client
    // may make the server score are the served ones, however many it names.
    let write = { (db: PostgresConnection) async throws -> [String: String] in
      let stored = try await Self.insert(events, install: install, at: time, db)
      var tally = DashboardTally()
      for event in stored { tally.add(event, install: install, at: time) }
      try await Self.keep(tally, install: install, at: time, db)
      guard let install, !cards.isEmpty else { return [:] }
      let named = Array(Set(cards.compactMap(\.cardID)))
      var served: [String: String] = [:]
      for row in try await db.rows(
        "SELECT id, type FROM cards WHERE id = ANY(\(named)) AND removed = 0")
      {
        let (id, type) = try row.decode((String, String).self)
        served[id] = type
      }
      let ids = Array(served.keys)
      guard !ids.isEmpty else { return [:] }
      try await db.run(
        """
        INSERT INTO seen (install_id, card_id) SELECT \(install), card
        FROM UNNEST(\(ids)::text[]) AS t(card) ON CONFLICT DO NOTHING
        """)
      try await db.run(
        "DELETE FROM user_scores WHERE install_id = \(install) AND card_id = ANY(\(ids))")
      return served
    }
    let reacts = cards.contains { SQLiteCardStore.weights[$0.name] != nil }
    // Only a reaction changes what pulls send (its install's scores): a batch without one
    // takes no revision, so no lock that the other processes' batches wait for.
    guard let install, reacts else {
      return try await client.withTransaction(logger: Self.logger) { _ = try await write($0) }
    }
    try await changing(for: install) { db, revision in
      let served = try await write(db)
      var touched: Set<String> = []
      var tally = DashboardTally()
      for event in cards where SQLiteCardStore.weights[event.name] != nil {
        guard let card = event.cardID, let type = served[card] else { continue }
        let old = try await db.rows(
          """
          SELECT reaction, time FROM reactions
          WHERE install_id = \(install) AND card_id = \(card) FOR UPDATE
          """
        ).first?.decode((String, Int64).self)
        if let old, old.1 > event.time { continue }
        try await db.run(
          """
          INSERT INTO reactions (install_id, card_id, type, reaction, time)
          VALUES (\(install), \(card), \(type), \(event.name), \(event.time))
          ON CONFLICT (install_id, card_id) DO UPDATE SET reaction = excluded.reaction,
            time = excluded.time, type = excluded.type
          """)
        tally.react(card: card, type: type, from: old?.0, to: event.name)
        touched.insert(type)
      }
      try await Self.keep(tally, install: nil, at: time, db)
      var rescored = 0
      for type in touched.sorted() {
        rescored += try await Self.score(
          type: type, install: install, at: time, revision: revision, db)
      }
      return ((), rescored > 0)
    }
  }

  /// Stores `events` in one statement: one row per sink, sender and `$insert_id`, the first's,
  /// with how many came (a batch may hold the same event twice; a row may not change twice).
  /// Returns the events stored for the first time.
  private static func insert(
    _ events: [ReceivedEvent], install: String?, at time: Int64, _ db: PostgresConnection
  ) async throws -> [ReceivedEvent] {
    var distinct: String?
    if let install {
      distinct =
        try await db.rows("SELECT distinct_id FROM installs WHERE install_id = \(install)")
        .first?.decode(String.self)
    }
    var firsts: [ReceivedEvent] = []
    var copies: [Int32] = []
    var index: [[String]: Int] = [:]
    for event in events {
      let key = [event.sink, install ?? event.distinctID, event.insertID]
      if let at = index[key] {
        copies[at] += 1
      } else {
        index[key] = firsts.count
        firsts.append(event)
        copies.append(1)
      }
    }
    let rows = try await db.rows(
      """
      INSERT INTO events (sink, owner, insert_id, name, distinct_id, install_id, time, payload,
        received_at, copies)
      SELECT sink, owner, insert_id, name, distinct_id, \(install)::text, time, payload,
        \(time), copies
      FROM UNNEST(\(firsts.map(\.sink))::text[],
        \(firsts.map { install ?? $0.distinctID })::text[], \(firsts.map(\.insertID))::text[],
        \(firsts.map(\.name))::text[], \(firsts.map { distinct ?? $0.distinctID })::text[],
        \(firsts.map(\.time))::bigint[], \(firsts.map(\.payload))::text[], \(copies)::int[])
        WITH ORDINALITY AS e(sink, owner, insert_id, name, distinct_id, time, payload, copies, n)
      ORDER BY n
      ON CONFLICT (sink, owner, insert_id) DO UPDATE SET copies = events.copies + excluded.copies
      RETURNING sink, owner, insert_id, (xmax = 0)
      """)
    var stored: [ReceivedEvent] = []
    for row in rows {
      let (sink, owner, insertID, inserted) = try row.decode((String, String, String, Bool).self)
      if inserted, let at = index[[sink, owner, insertID]] { stored.append(firsts[at]) }
    }
    return stored
  }

  /// Adds what `record` stored anew to the dashboard's aggregates, in its transaction, one
  /// statement a table.
  private static func keep(
    _ tally: DashboardTally, install: String?, at time: Int64, _ db: PostgresConnection
  ) async throws {
    if let install {
      try await db.run(
        """
        INSERT INTO dash_installs (install_id, last_seen) VALUES (\(install), \(time))
        ON CONFLICT (install_id) DO UPDATE
          SET last_seen = GREATEST(dash_installs.last_seen, excluded.last_seen)
        """)
    }
    guard !tally.isEmpty else { return }
    let hours = tally.hours.sorted { $0.key < $1.key }
    try await db.run(
      """
      INSERT INTO dash_hours (hour, events)
      SELECT * FROM UNNEST(
        \(hours.map(\.key))::bigint[], \(hours.map { Int64($0.value) })::bigint[])
      ON CONFLICT (hour) DO UPDATE SET events = dash_hours.events + excluded.events
      """)
    let names = tally.names.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    try await db.run(
      """
      INSERT INTO dash_names (sink, name, events)
      SELECT * FROM UNNEST(\(names.map { $0.key[0] })::text[], \(names.map { $0.key[1] })::text[],
        \(names.map { Int64($0.value) })::bigint[])
      ON CONFLICT (sink, name) DO UPDATE SET events = dash_names.events + excluded.events
      """)
    guard !tally.cards.isEmpty else { return }
    let cards = tally.cards.sorted { $0.key < $1.key }
    try await db.run(
      """
      INSERT INTO dash_cards (card_id, type, ctfo, tfu, tifb)
      SELECT * FROM UNNEST(\(cards.map(\.key))::text[], \(cards.map(\.value.type))::text[],
        \(cards.map { Int64($0.value.counts[0]) })::bigint[],
        \(cards.map { Int64($0.value.counts[1]) })::bigint[],
        \(cards.map { Int64($0.value.counts[2]) })::bigint[])
      ON CONFLICT (card_id) DO UPDATE SET ctfo = dash_cards.ctfo + excluded.ctfo,
        tfu = dash_cards.tfu + excluded.tfu, tifb = dash_cards.tifb + excluded.tifb
      """)
  }

  public func countRefused(sink: String, records: Int, requests: Int) async throws {
    guard records > 0 || requests > 0 else { return }
    try await client.withConnection { db in
      try await db.run(
        """
        INSERT INTO dash_refused (sink, records, requests)
        VALUES (\(sink), \(Int64(records)), \(Int64(requests)))
        ON CONFLICT (sink) DO UPDATE SET records = dash_refused.records + excluded.records,
          requests = dash_refused.requests + excluded.requests
        """)
    }
  }

  public func dashboard(at time: Int64, minReactions: Int) async throws -> DashboardData {
    try await client.withConnection { db in
      var data = DashboardData()
      let since = time / DashboardData.hourMilliseconds - Int64(DashboardData.hoursShown)
      for row in try await db.rows(
        "SELECT hour, events FROM dash_hours WHERE hour > \(since) ORDER BY hour")
      {
        let (hour, events) = try row.decode((Int64, Int64).self)
        data.hours.append(DashboardData.Hour(hour: hour, events: Int(events)))
      }
      for row in try await db.rows(
        """
        SELECT c.type, SUM(d.ctfo)::BIGINT, SUM(d.tfu)::BIGINT, SUM(d.tifb)::BIGINT
        FROM dash_cards d JOIN cards c ON c.id = d.card_id AND c.removed = 0
        GROUP BY c.type ORDER BY c.type LIMIT \(Int64(DashboardData.typesShown))
        """)
      {
        let (type, ctfo, tfu, tifb) = try row.decode((String, Int64, Int64, Int64).self)
        data.types.append(
          DashboardData.Reactions(key: type, ctfo: Int(ctfo), tfu: Int(tfu), tifb: Int(tifb)))
      }
      for row in try await db.rows(
        """
        SELECT d.card_id, d.ctfo, d.tfu, d.tifb, c.title FROM dash_cards d
        JOIN cards c ON c.id = d.card_id AND c.removed = 0
        WHERE d.ctfo + d.tfu + d.tifb >= \(Int64(minReactions))
        ORDER BY d.ctfo::float8 / (d.ctfo + d.tfu + d.tifb) DESC, d.ctfo + d.tfu + d.tifb DESC,
          d.card_id LIMIT \(Int64(DashboardData.topCards))
        """)
      {
        let (card, ctfo, tfu, tifb, title) = try row.decode(
          (String, Int64, Int64, Int64, String?).self)
        data.topCards.append(
          DashboardData.Reactions(
            key: card, title: title, ctfo: Int(ctfo), tfu: Int(tfu), tifb: Int(tifb)))
      }
      var active: [Int] = []
      for days in DashboardData.activeDays {
        let since = time - days * DashboardData.dayMilliseconds
        active.append(
          Int(
            try await db.rows("SELECT COUNT(*) FROM dash_installs WHERE last_seen > \(since)")
              .first?.decode(Int64.self) ?? 0))
      }
      data.activeInstalls = active
      for row in try await db.rows(
        "SELECT sink, records, requests FROM dash_refused ORDER BY sink")
      {
        let (sink, records, requests) = try row.decode((String, Int64, Int64).self)
        data.refused.append(
          DashboardData.Refused(sink: sink, records: Int(records), requests: Int(requests)))
      }
      for row in try await db.rows(
        """
        SELECT sink, name, events FROM dash_names ORDER BY events DESC, sink, name
        LIMIT \(Int64(DashboardData.topNames))
        """)
      {
        let (sink, name, events) = try row.decode((String, String, Int64).self)
        data.names.append(DashboardData.Name(sink: sink, name: name, events: Int(events)))
      }
      return data
    }
  }

  /// Scores the unseen cards of `type` for `install` from its reactions to the type, by the
  /// rule of `SQLiteCardStore`; returns how many scores changed.
  private static func score(
    type: String, install: String, at time: Int64, revision: Int64, _ db: PostgresConnection
  ) async throws -> Int {
    var counts: [(reaction: String, count: Double)] = []
    for row in try await db.rows(
      """
      SELECT reaction, COUNT(*) FROM reactions WHERE install_id = \(install) AND type = \(type)
      GROUP BY reaction
      """)
    {
      let (reaction, count) = try row.decode((String, Int64).self)
      counts.append((reaction, Double(count)))
    }
    let weights = SQLiteCardStore.weights
    let total = counts.reduce(0) { $0 + $1.count }
    let weight = counts.reduce(0) { $0 + (weights[$1.reaction] ?? 0) * $1.count }
    let affinity = (weight + 1) / (total + 2)
    let most = counts.max { ($0.count, $1.reaction) < ($1.count, $0.reaction) }?.reaction ?? "CTFO"
    let reason = "you often \(most) \(type)"
    return try await db.rows(
      """
      INSERT INTO user_scores (install_id, card_id, score, scored_at, reason, revision)
      SELECT \(install), c.id, \(affinity), \(time), \(reason), \(revision) FROM cards c
      WHERE c.type = \(type) AND c.removed = 0
        AND NOT EXISTS (SELECT 1 FROM seen s WHERE s.install_id = \(install)
          AND s.card_id = c.id)
      ON CONFLICT (install_id, card_id) DO UPDATE SET score = excluded.score,
        scored_at = excluded.scored_at, reason = excluded.reason, revision = excluded.revision
      WHERE user_scores.score <> excluded.score
        OR user_scores.reason IS DISTINCT FROM excluded.reason
      RETURNING 1
      """
    ).count
  }

  public func events(sink: String) async throws -> [ReceivedEvent] {
    try await client.withConnection { db in
      var events: [ReceivedEvent] = []
      for row in try await db.rows(
        """
        SELECT sink, insert_id, name, distinct_id, time, payload, copies FROM events
        WHERE sink = \(sink) ORDER BY seq
        """)
      {
        let (sink, insertID, name, distinctID, time, payload, copies) = try row.decode(
          (String, String, String, String, Int64, String, Int32).self)
        events.append(
          ReceivedEvent(
            sink: sink, insertID: insertID, name: name, distinctID: distinctID, time: time,
            payload: payload, copies: Int(copies)))
      }
      return events
    }
  }

  public func eventReport(sink: String) async throws -> String {
    try await client.withConnection { db in
      var report = ""
      for row in try await db.rows(
        "SELECT name, COUNT(*) FROM events WHERE sink = \(sink) GROUP BY name ORDER BY name")
      {
        let (name, count) = try row.decode((String, Int64).self)
        report += EventReport.line(name: name, count: count)
      }
      return report
    }
  }
}

extension PostgresConnection {
  /// The rows of `query`, read to the end.
  fileprivate func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
    try await self.query(query, logger: PostgresCardStore.logger).collect()
  }

  /// Runs `query`, its rows (if any) read and dropped.
  fileprivate func run(_ query: PostgresQuery) async throws {
    _ = try await rows(query)
  }
}

/// A PostgreSQL URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable]`; a host
/// that is a folder (`/...` or `%2F...`) names the folder of the server's socket.
struct PostgresAddress: Equatable {
  var user: String
  var password: String?
  var host: String
  var port: Int
  var database: String
  var tls: Bool
  /// The socket's path when the host is a folder.
  var socket: String? { host.hasPrefix("/") ? host + "/.s.PGSQL.\(port)" : nil }
  /// The URL without its password, for messages.
  var shown: String {
    "postgres://\(user)@\(host.hasPrefix("/") ? "[\(host)]" : host):\(port)/\(database)"
  }

  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  init(_ url: String) throws {
    func invalid(_ why: String) -> Invalid {
      Invalid(
        description: "\(why): a store URL is postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
    }
    var rest = Substring(url)
    if rest.hasPrefix("postgres://") {
      rest = rest.dropFirst("postgres://".count)
    } else if rest.hasPrefix("postgresql://") {
      rest = rest.dropFirst("postgresql://".count)
    } else {
      throw invalid("not a postgres:// URL")
    }
    var query = Substring("")
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    guard let at = rest.lastIndex(of: "@") else { throw invalid("no user") }
    let userInfo = rest[..<at]
    rest = rest[rest.index(after: at)...]
    guard let slash = rest.firstIndex(of: "/") else { throw invalid("no database") }
    let database = Self.decoded(rest[rest.index(after: slash)...])
    let hostPort = rest[..<slash]
    if let colon = hostPort.lastIndex(of: ":") {
      guard let port = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(port)
      else { throw invalid("a bad port") }
      host = Self.decoded(hostPort[..<colon])
      self.port = port
    } else {
      host = Self.decoded(hostPort)
      port = 5432
    }
    if let colon = userInfo.firstIndex(of: ":") {
      user = Self.decoded(userInfo[..<colon])
      password = Self.decoded(userInfo[userInfo.index(after: colon)...])
    } else {
      user = Self.decoded(userInfo)
      password = nil
    }
    self.database = database
    guard !user.isEmpty else { throw invalid("no user") }
    guard !host.isEmpty else { throw invalid("no host") }
    guard !database.isEmpty else { throw invalid("no database") }
    tls = !host.hasPrefix("/") && !query.split(separator: "&").contains("sslmode=disable")
  }

  /// `text` with its `%XX` escapes decoded.
  private static func decoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
