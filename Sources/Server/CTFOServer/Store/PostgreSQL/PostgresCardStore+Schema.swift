import Logging
import PostgresNIO

extension PostgresCardStore {
  /// The migrations, each a list of statements; `schema_version` holds how many are applied.
  /// A shipped one is never edited.
  static let migrations: [[PostgresQuery]] = [
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
    // The personaliser's evidence, kept as reactions arrive, and the installs waiting for
    // new scores (Personalisation/).
    personalisationMigration,
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
}
