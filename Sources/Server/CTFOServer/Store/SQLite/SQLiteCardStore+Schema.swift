import SQL

extension SQLiteCardStore {
  /// The migrations; `PRAGMA user_version` counts those applied. A shipped one is never edited.
  private static let migrations = [
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE types (
      name TEXT PRIMARY KEY, label TEXT, colour TEXT, description TEXT,
      revision INTEGER NOT NULL, removed INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE cards (
      id TEXT PRIMARY KEY, type TEXT NOT NULL, title TEXT, body TEXT NOT NULL, source TEXT,
      url TEXT, reveal TEXT, published_at INTEGER NOT NULL, revision INTEGER NOT NULL,
      removed INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX cards_by_revision ON cards(revision);
    CREATE TABLE scores (
      card_id TEXT PRIMARY KEY, score REAL NOT NULL, scored_at INTEGER NOT NULL,
      revision INTEGER NOT NULL);
    CREATE INDEX scores_by_revision ON scores(revision);
    CREATE TABLE installs (install_id TEXT PRIMARY KEY, distinct_id TEXT NOT NULL);
    CREATE TABLE tokens (
      hash TEXT PRIMARY KEY, install_id TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE TABLE notifications (
      id TEXT PRIMARY KEY, text TEXT NOT NULL, created_at INTEGER NOT NULL,
      revision INTEGER NOT NULL);
    """,
    // Analytics: each event once per sink and dedup key, with how many times it
    // came; per install, the cards seen, the final reactions, and the scores made of them.
    """
    CREATE TABLE events (
      seq INTEGER PRIMARY KEY, sink TEXT NOT NULL, insert_id TEXT NOT NULL, name TEXT NOT NULL,
      distinct_id TEXT NOT NULL, install_id TEXT, time INTEGER NOT NULL, payload TEXT NOT NULL,
      received_at INTEGER NOT NULL, copies INTEGER NOT NULL DEFAULT 1, UNIQUE (sink, insert_id));
    CREATE TABLE seen (
      install_id TEXT NOT NULL, card_id TEXT NOT NULL, PRIMARY KEY (install_id, card_id))
      WITHOUT ROWID;
    CREATE TABLE reactions (
      install_id TEXT NOT NULL, card_id TEXT NOT NULL, type TEXT NOT NULL,
      reaction TEXT NOT NULL, time INTEGER NOT NULL, PRIMARY KEY (install_id, card_id))
      WITHOUT ROWID;
    CREATE TABLE user_scores (
      install_id TEXT NOT NULL, card_id TEXT NOT NULL, score REAL NOT NULL,
      scored_at INTEGER NOT NULL, reason TEXT, revision INTEGER NOT NULL,
      PRIMARY KEY (install_id, card_id)) WITHOUT ROWID;
    CREATE INDEX user_scores_by_revision ON user_scores(install_id, revision);
    """,
    // An `$insert_id` is unique within what one install sent (the CTFO sink) or one
    // `distinct_id` (Mixpanel, GA): another install's id never hides an event.
    """
    ALTER TABLE events RENAME TO events_before_owner;
    CREATE TABLE events (
      seq INTEGER PRIMARY KEY, sink TEXT NOT NULL, owner TEXT NOT NULL, insert_id TEXT NOT NULL,
      name TEXT NOT NULL, distinct_id TEXT NOT NULL, install_id TEXT, time INTEGER NOT NULL,
      payload TEXT NOT NULL, received_at INTEGER NOT NULL, copies INTEGER NOT NULL DEFAULT 1,
      UNIQUE (sink, owner, insert_id));
    INSERT INTO events (seq, sink, owner, insert_id, name, distinct_id, install_id, time, payload,
      received_at, copies)
      SELECT seq, sink, COALESCE(install_id, distinct_id), insert_id, name, distinct_id,
        install_id, time, payload, received_at, copies FROM events_before_owner;
    DROP TABLE events_before_owner;
    """,
    // A change only one install receives (its scores) is stamped on the install, and one every
    // client receives on `shared_revision`: a client's cache key moves only with its own pull.
    """
    ALTER TABLE installs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    INSERT INTO meta (key, value) SELECT 'shared_revision', value FROM meta WHERE key = 'revision';
    """,
    // One live token per install (the newest), and what pruning looks rows up by.
    """
    DELETE FROM tokens WHERE rowid NOT IN (SELECT MAX(rowid) FROM tokens GROUP BY install_id);
    CREATE INDEX tokens_by_install ON tokens(install_id);
    CREATE INDEX tokens_by_expiry ON tokens(expires_at);
    CREATE INDEX events_by_arrival ON events(received_at);
    CREATE INDEX events_by_install ON events(install_id);
    """,
    // The user's status per install, set by `ctfo-server status`; NULL is the default,
    // "active".
    """
    ALTER TABLE installs ADD COLUMN status TEXT;
    """,
    // The dashboard's aggregates, kept as events arrive (`DashboardData`), begun from the
    // events stored so far; a card's reactions from the installs' latest.
    """
    CREATE TABLE dash_hours (hour INTEGER PRIMARY KEY, events INTEGER NOT NULL);
    CREATE TABLE dash_names (
      sink TEXT NOT NULL, name TEXT NOT NULL, events INTEGER NOT NULL, PRIMARY KEY (sink, name));
    CREATE TABLE dash_cards (
      card_id TEXT PRIMARY KEY, type TEXT NOT NULL, ctfo INTEGER NOT NULL DEFAULT 0,
      tfu INTEGER NOT NULL DEFAULT 0, tifb INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE dash_installs (install_id TEXT PRIMARY KEY, last_seen INTEGER NOT NULL);
    CREATE INDEX dash_installs_by_time ON dash_installs(last_seen);
    CREATE TABLE dash_refused (
      sink TEXT PRIMARY KEY, records INTEGER NOT NULL DEFAULT 0,
      requests INTEGER NOT NULL DEFAULT 0);
    INSERT INTO dash_hours SELECT received_at / 3600000, COUNT(*) FROM events GROUP BY 1;
    INSERT INTO dash_names SELECT sink, name, COUNT(*) FROM events GROUP BY 1, 2;
    INSERT INTO dash_installs SELECT install_id, MAX(received_at) FROM events
      WHERE install_id IS NOT NULL GROUP BY 1;
    INSERT INTO dash_cards SELECT card_id, MIN(type), SUM(reaction = 'CTFO'),
      SUM(reaction = 'TFU'), SUM(reaction = 'TIFB') FROM reactions GROUP BY card_id;
    """,
    // A reaction is kept only for a served card, under the card's type (not the one a client
    // named), and found by type for scoring; the dashboard counts each install's final
    // reaction once.
    """
    DELETE FROM reactions WHERE card_id NOT IN (SELECT id FROM cards);
    UPDATE reactions SET type = (SELECT type FROM cards WHERE cards.id = reactions.card_id);
    CREATE INDEX reactions_by_type ON reactions(install_id, type);
    DELETE FROM dash_cards;
    INSERT INTO dash_cards SELECT card_id, MIN(type), SUM(reaction = 'CTFO'),
      SUM(reaction = 'TFU'), SUM(reaction = 'TIFB') FROM reactions GROUP BY card_id;
    """,
    // The personaliser's evidence, kept as reactions arrive, and the installs waiting for
    // new scores (Personalisation/).
    personalisationMigration,
  ]

  /// The schema version this build migrates to.
  public static var schemaVersion: Int { migrations.count }

  /// Applies the migrations not yet applied; a store migrated by a newer build is refused.
  static func migrate(_ db: Connection, path: String) throws {
    try db.transaction(immediate: true) {
      let version = try db.rows("PRAGMA user_version") { Int($0.integer(0)) }.first ?? 0
      guard version <= migrations.count else {
        throw CardStoreError.newerSchema(store: path, version: version, known: migrations.count)
      }
      guard version < migrations.count else { return }
      for sql in migrations[version...] { try db.execute(sql) }
      try db.execute("PRAGMA user_version = \(migrations.count)")
      try db.run(
        "INSERT OR IGNORE INTO meta (key, value) VALUES ('epoch', ?), ('revision', '0'), "
          + "('shared_revision', '0')",
        [.text(Token.random(bytes: 6))])
    }
  }
}
