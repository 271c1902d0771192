import SQL

/// The schema, as one list of migrations; the database records how many ran in
/// `PRAGMA user_version`. A migration that shipped is never edited: append `v4`, `v5`, ...
enum Migrations {
  /// The migrations in order: version n is the database after `all[0..<n]`.
  static let all = [v1, v2, v3, v4, v5, v6, v7, v8]

  /// The schema version this build writes.
  static var latest: Int { all.count }

  /// The identifiers GRDB recorded in `grdb_migrations` (releases before v3), by version.
  static let grdbIdentifiers = ["v1", "v2"]

  /// Brings the database to `latest`: nothing to do costs one read of `user_version`.
  static func migrate(_ db: Connection, path: String) throws {
    if try version(db, path: path) == latest { return }
    try db.transaction(immediate: true) {
      let current = try version(db, path: path)
      for sql in all[current...] { try db.execute(sql) }
      try db.execute("PRAGMA user_version = \(latest)")
    }
  }

  /// The version of the schema: `user_version`, or for a database GRDB migrated (which left
  /// `user_version` at 0) the number of GRDB migrations it recorded.
  private static func version(_ db: Connection, path: String) throws -> Int {
    var version = try db.rows("PRAGMA user_version") { Int($0.integer(0)) }.first ?? 0
    if version == 0 { version = try grdbVersion(db, path: path) }
    guard version <= latest else {
      throw StoreError.newerSchema(path: path, version: version, known: latest)
    }
    return version
  }

  private static func grdbVersion(_ db: Connection, path: String) throws -> Int {
    let table = try db.rows(
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'"
    ) { $0.integer(0) }
    guard table.first == 1 else { return 0 }
    let applied = try db.rows("SELECT identifier FROM grdb_migrations") { $0.text(0) ?? "" }
    guard Set(applied).isSubset(of: grdbIdentifiers) else {
      throw StoreError.newerSchema(path: path, version: applied.count, known: latest)
    }
    return grdbIdentifiers.prefix { applied.contains($0) }.count
  }

  // MARK: Card indexes

  /// The secondary indexes of `cards` as of the latest migration. A first import drops them
  /// and builds them again after loading: sorting once beats a million random inserts.
  static let cardIndexes = [
    "CREATE UNIQUE INDEX IF NOT EXISTS cards_by_ordinal ON cards(type, ordinal)",
    "CREATE INDEX IF NOT EXISTS cards_by_id ON cards(id, ordinal)",
    "CREATE INDEX IF NOT EXISTS cards_by_deck ON cards(deck)",
  ]
  static let cardIndexNames = ["cards_by_ordinal", "cards_by_id", "cards_by_deck"]

  static func dropCardIndexes(_ db: Connection) throws {
    for name in cardIndexNames { try db.execute("DROP INDEX IF EXISTS \(name)") }
  }

  /// Counts the card indexes present. Built by a loop: `joined(separator:)` runs unspecialised
  /// here and costs every command one of the runtime's conformance scans.
  private static let presentCardIndexes = {
    var names = ""
    for name in cardIndexNames { names += (names.isEmpty ? "'" : ", '") + name + "'" }
    return "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN (\(names))"
  }()

  /// Builds the indexes a bulk import dropped (also after a crash in the middle of one);
  /// when all exist, this is one read.
  static func ensureCardIndexes(_ db: Connection) throws {
    let present = try db.rows(presentCardIndexes) { Int($0.integer(0)) }
    guard present.first != cardIndexNames.count else { return }
    try db.transaction(immediate: true) {
      for sql in cardIndexes { try db.execute(sql) }
    }
  }

  // MARK: The migrations

  private static let v1 = """
    CREATE TABLE decks (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      position INTEGER NOT NULL,
      size INTEGER NOT NULL,
      mtime REAL NOT NULL,
      hash TEXT NOT NULL,
      name TEXT,
      types TEXT NOT NULL DEFAULT '[]',
      problems TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE cards (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      deck INTEGER NOT NULL REFERENCES decks(id) ON DELETE CASCADE,
      line INTEGER NOT NULL,
      type TEXT NOT NULL,
      ordinal INTEGER,
      title TEXT,
      body TEXT NOT NULL,
      source TEXT,
      url TEXT,
      reveal TEXT,
      score REAL,
      scored_at REAL
    );
    CREATE UNIQUE INDEX cards_by_ordinal ON cards(type, ordinal);
    CREATE INDEX cards_by_id ON cards(id, ordinal);
    CREATE INDEX cards_by_deck ON cards(deck);
    CREATE INDEX cards_scored ON cards(type) WHERE score IS NOT NULL;
    CREATE TABLE card_types (
      name TEXT PRIMARY KEY,
      label TEXT NOT NULL,
      colour TEXT,
      description TEXT,
      cards INTEGER NOT NULL
    );
    CREATE TABLE disabled_types (name TEXT PRIMARY KEY);
    CREATE TABLE history (
      idx INTEGER PRIMARY KEY,
      card_id TEXT NOT NULL,
      type TEXT NOT NULL,
      title TEXT,
      shown_at REAL NOT NULL,
      reaction TEXT
    );
    CREATE TABLE tombstones (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      history_idx INTEGER NOT NULL UNIQUE,
      card_id TEXT NOT NULL,
      type TEXT NOT NULL,
      direction TEXT NOT NULL
    );
    CREATE TABLE reaction_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      history_idx INTEGER NOT NULL,
      card_id TEXT NOT NULL,
      type TEXT NOT NULL,
      reaction TEXT NOT NULL,
      committed_at REAL NOT NULL,
      sent_at REAL
    );
    """

  /// The config file as last read, for a former quick path of `ctfo next` (dropped by v3).
  private static let v2 = """
    CREATE TABLE config_reads (
      path TEXT PRIMARY KEY,
      size INTEGER NOT NULL,
      mtime REAL NOT NULL,
      inode INTEGER NOT NULL,
      lookahead INTEGER NOT NULL
    );
    """

  /// One binary reads its config itself, and GRDB's bookkeeping gives way to `user_version`.
  private static let v3 = """
    DROP TABLE IF EXISTS config_reads;
    DROP TABLE IF EXISTS grdb_migrations;
    """

  /// The cards that come back before any new card (`ReturnQueue`): place 0 is the card on
  /// screen when the app quit, places from 1 the cards an undo pushed back, in return order.
  private static let v4 = """
    CREATE TABLE return_queue (
      history_idx INTEGER PRIMARY KEY,
      place INTEGER NOT NULL
    );
    """

  /// The CTFO server: the client's session (one row; the token lives here, so the
  /// database file is made 0600), the server's cards in `cards` under a deck row whose path is
  /// `server:`, with a body the pull may leave out and a time of publication, scores that came
  /// before their card, the user's notifications. History is looked up by card for "a score
  /// for a card already seen is ignored".
  private static let v5 = """
    CREATE TABLE server_session (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      server TEXT NOT NULL,
      install_id TEXT NOT NULL,
      token TEXT,
      token_expires_at INTEGER,
      distinct_id TEXT,
      clock_offset INTEGER NOT NULL DEFAULT 0,
      cache_key_hot TEXT,
      cache_key_recent TEXT,
      user_status TEXT,
      last_pull_at INTEGER,
      last_problem TEXT
    );
    CREATE TABLE pending_scores (
      card_id TEXT PRIMARY KEY,
      score REAL NOT NULL,
      scored_at REAL NOT NULL
    );
    CREATE TABLE server_notifications (
      id TEXT PRIMARY KEY,
      text TEXT NOT NULL,
      created_at INTEGER,
      expires_at INTEGER,
      dismissed INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE cards ADD COLUMN body_missing INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE cards ADD COLUMN published_at INTEGER;
    CREATE INDEX history_by_card ON history(card_id);
    """

  /// Analytics: the outbox of events, written in the transaction of the state change
  /// that caused them, each with the exact JSON sent (`payload`), so a retry sends the same
  /// bytes; a cursor and delivery record per sink; dead letters kept (with the payload, as the
  /// outbox row goes once every sink has it) and counted; the install's identity, made once.
  private static let v6 = """
    CREATE TABLE analytics_identity (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      install_id TEXT NOT NULL,
      distinct_id TEXT NOT NULL,
      identified INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO analytics_identity (id, install_id, distinct_id)
      SELECT 1, install_id, COALESCE(distinct_id, install_id) FROM server_session WHERE id = 1;
    CREATE TABLE analytics_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      insert_id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      time_ms INTEGER NOT NULL,
      payload TEXT NOT NULL
    );
    CREATE TABLE analytics_sinks (
      sink TEXT PRIMARY KEY,
      acked_seq INTEGER NOT NULL DEFAULT 0,
      delivered INTEGER NOT NULL DEFAULT 0,
      failures INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER,
      last_success_ms INTEGER,
      last_error TEXT,
      last_error_ms INTEGER
    );
    CREATE TABLE analytics_dead (
      sink TEXT NOT NULL,
      seq INTEGER NOT NULL,
      insert_id TEXT NOT NULL,
      payload TEXT NOT NULL,
      status INTEGER,
      reason TEXT NOT NULL,
      at_ms INTEGER NOT NULL,
      PRIMARY KEY (sink, seq)
    );
    ALTER TABLE cards ADD COLUMN score_reason TEXT;
    ALTER TABLE pending_scores ADD COLUMN reason TEXT;
    """

  /// The home's place in its rounds (`RoundProgress`), so that every run goes on with them:
  /// the cards of each type shown in its current round, and the types shown in the current
  /// round of types.
  private static let v7 = """
    CREATE TABLE round_cards (
      type TEXT NOT NULL,
      card_id TEXT NOT NULL,
      PRIMARY KEY (type, card_id)
    ) WITHOUT ROWID;
    CREATE TABLE round_types (type TEXT PRIMARY KEY) WITHOUT ROWID;
    """

  /// The reactions made final that the reaction hook has not been given yet (`HookQueue`),
  /// written in the transaction that makes them final: a quit, a crash or a kill loses none.
  private static let v8 = """
    CREATE TABLE hook_queue (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      history_idx INTEGER NOT NULL,
      card_id TEXT NOT NULL,
      type TEXT NOT NULL,
      reaction TEXT NOT NULL,
      time REAL NOT NULL
    );
    """
}
