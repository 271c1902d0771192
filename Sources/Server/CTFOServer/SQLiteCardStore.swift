import CTFOWire
import SQL
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The server's store in one SQLite file (`--data DIR`/server.sqlite), WAL mode, so the
/// operator commands (`ctfo-server score`, `notify`) write while the server reads.
///
/// Every transaction that changes something takes the next revision and stamps the rows it
/// writes with it; a removed card stays as a row marked removed, so a pull since an older
/// revision can say it is gone.
public final class SQLiteCardStore: CardStore {
  let lane: Lane
  private let knownEpoch = Mutex<String?>(nil)
  private let reads = PullReads()
  private let knownTokens = KnownTokens()

  /// The store's file.
  let path: String
  /// The free bytes its disk must have for the store to be ready (`checkRoom`).
  let minimumFreeBytes: Int64

  public init(path: String, minimumFreeBytes: Int64 = 16 << 20) throws {
    self.path = path
    self.minimumFreeBytes = minimumFreeBytes
    let open: @Sendable () throws -> Connection = {
      let connection = try Connection(path: path, role: .writer)
      try connection.execute(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;")
      return connection
    }
    let connection: Connection
    do {
      connection = try open()
    } catch {
      // SQLite's message says what, not where: a folder the server may not write.
      throw CardStoreError.unreachable(store: path, reason: "\(error)")
    }
    try Self.migrate(connection, path: path)
    lane = Lane(connection, open: open)
  }

  deinit { lane.close() }

  /// Throws, saying so, when the disk holding the store has less than `minimumFreeBytes` free
  /// for the server: a full disk fails every write, while reads still answer.
  func checkRoom() throws {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    var space = statvfs()
    guard statvfs(folder.isEmpty ? "." : folder, &space) == 0 else { return }
    let free = Int64(space.f_bavail) * Int64(space.f_frsize)
    guard free >= minimumFreeBytes else {
      throw CardStoreError.unreachable(
        store: path, reason: "its disk has \(free) bytes free (\(minimumFreeBytes) needed)")
    }
  }

  // MARK: - At once

  // SQLite answers on the caller's thread: every answer is at once. What was read less than a
  // second ago is answered from memory (`PullReads`): each query's read transaction takes
  // SQLite's file locks and the connection's lane, which the event loops contend for.
  public func epochAtOnce() -> String? { try? epoch() }
  public func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? {
    reads.revisions.value(for: PullReads.Key(install: feed == .hot ? install : nil, feed: feed))
      ?? (try? revision(install: install, feed: feed))
  }
  public func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? {
    try? install(forToken: hash, at: time)
  }
  public func ownChangesAtOnce(install: String, feed: PullFeed, revision: Int64) -> Changes? {
    let key = PullReads.Key(install: install, feed: feed)
    if let kept = reads.ownChanges.value(for: key), kept.revision == revision {
      return kept.changes
    }
    let generation = reads.ownChanges.generation
    guard let own = try? ownChanges(install: install, feed: feed) else { return nil }
    reads.ownChanges.remember((revision, own), for: key, readAt: generation)
    return own
  }

  // MARK: - Schema

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
  ]

  /// The schema version this build migrates to.
  public static var schemaVersion: Int { migrations.count }

  /// Applies the migrations not yet applied; a store migrated by a newer build is refused.
  private static func migrate(_ db: Connection, path: String) throws {
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

  // MARK: - Revisions

  public func revision(install: String?, feed: PullFeed) throws -> Int64 {
    let install = feed == .hot ? install : nil
    let generation = reads.revisions.generation
    let revision = try lane.run { db in
      try db.rows(
        "SELECT MAX(CAST(value AS INTEGER), COALESCE((SELECT revision FROM installs "
          + "WHERE install_id = ?), 0)) FROM meta WHERE key = 'shared_revision'",
        [.text(install)]
      ) { $0.integer(0) }.first ?? 0
    }
    reads.revisions.remember(
      revision, for: PullReads.Key(install: install, feed: feed), readAt: generation)
    return revision
  }

  /// The store's epoch, made with the store and never changed: read once.
  public func epoch() throws -> String {
    if let known = knownEpoch.withLock({ $0 }) { return known }
    let epoch = try lane.run { db in
      try db.rows("SELECT value FROM meta WHERE key = 'epoch'") { $0.text(0) ?? "" }.first ?? ""
    }
    knownEpoch.withLock { $0 = epoch }
    return epoch
  }

  private static func revision(_ db: Connection) throws -> Int64 {
    try db.rows("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'revision'") {
      $0.integer(0)
    }.first ?? 0
  }

  /// Runs `body` in a write transaction with the next revision; the revision is kept only if
  /// `body` changed something, and stamped on `install` when only that install receives the
  /// change, else on what every client receives.
  func changing<T: Sendable>(
    for install: String? = nil, _ body: (Connection, Int64) throws -> (T, changed: Bool)
  ) throws -> T {
    defer { reads.forget() }
    return try lane.run { db in
      try db.transaction(immediate: true) {
        let next = try Self.revision(db) + 1
        let (result, changed) = try body(db, next)
        if changed {
          try db.run(
            "UPDATE meta SET value = ? WHERE key = 'revision'", [.text(String(next))])
          if let install {
            try db.run(
              "UPDATE installs SET revision = ? WHERE install_id = ?",
              [.integer(next), .text(install)])
          } else {
            try db.run(
              "UPDATE meta SET value = ? WHERE key = 'shared_revision'", [.text(String(next))])
          }
        }
        return result
      }
    }
  }

  // MARK: - Pulls

  public func changes(
    since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?
  ) throws -> Changes {
    try lane.run { db in
      try db.transaction(immediate: false) {
        let since = revision ?? -1
        var changes = Changes(full: revision == nil)
        changes.types = try db.rows(
          "SELECT name, label, colour, description FROM types WHERE revision > ? AND removed = 0 "
            + "ORDER BY name", [.integer(since)]
        ) {
          Wire.CardType(
            name: $0.text(0) ?? "", label: $0.text(1), colour: $0.text(2), description: $0.text(3))
        }
        let order =
          feed == .hot
          ? "ORDER BY s.score IS NULL, s.score DESC, c.id" : "ORDER BY c.published_at DESC, c.id"
        let rows = try db.rows(
          "SELECT c.id, c.type, c.title, c.body, c.source, c.url, c.reveal, c.published_at, "
            + "c.removed FROM cards c LEFT JOIN scores s ON s.card_id = c.id "
            + "WHERE c.revision > ? \(order)", [.integer(since)]
        ) { row in
          (
            card: Wire.Card(
              id: row.text(0) ?? "", type: row.text(1) ?? "", title: row.text(2),
              body: row.text(3), source: row.text(4), url: row.text(5), reveal: row.text(6),
              publishedAt: row.integer(7)),
            removed: row.integer(8) != 0
          )
        }
        for row in rows {
          if row.removed {
            if revision != nil { changes.removed.append(row.card.id) }
            continue
          }
          var card = row.card
          if let body = card.body, body.utf8.count > bodyLimit {
            card.body = nil
            card.bodyOmitted = true
          }
          changes.cards.append(card)
        }
        changes.scores = try scores(db, since: since, feed: feed, sent: changes.cards)
        if feed == .hot, let install {
          changes.scores += try Self.userScores(db, install: install, since: since)
        }
        if let install {
          changes.userStatus =
            try db.rows(
              "SELECT status FROM installs WHERE install_id = ?", [.text(install)]
            ) { $0.text(0) }.first ?? nil
        }
        changes.notifications = try db.rows(
          "SELECT id, text, created_at FROM notifications ORDER BY created_at DESC, id LIMIT 100"
        ) {
          Wire.Notification(id: $0.text(0) ?? "", text: $0.text(1) ?? "", createdAt: $0.integer(2))
        }
        return changes
      }
    }
  }

  public func ownChanges(install: String, feed: PullFeed) throws -> Changes {
    try lane.run { db in
      try db.transaction(immediate: false) {
        var own = Changes(full: true)
        if feed == .hot { own.scores = try Self.userScores(db, install: install, since: -1) }
        own.userStatus =
          try db.rows(
            "SELECT status FROM installs WHERE install_id = ?", [.text(install)]
          ) { $0.text(0) }.first ?? nil
        return own
      }
    }
  }

  /// `hot`: the operator's scores changed since `since`; `recent`: each card sent scored by
  /// its time of publication, so the client deals the newest first.
  private func scores(
    _ db: Connection, since: Int64, feed: PullFeed, sent: [Wire.Card]
  ) throws -> [Wire.Score] {
    guard feed == .hot else {
      return sent.map { card in
        let time = card.publishedAt ?? 0
        return Wire.Score(cardId: card.id, score: Double(time) / 1000, scoredAt: time)
      }
    }
    // `+s.card_id`: the rows come from the revision's index, not a walk of every score in
    // card order (what SQLite picks otherwise, to spare the sort).
    return try db.rows(
      "SELECT s.card_id, s.score, s.scored_at FROM scores s JOIN cards c ON c.id = s.card_id "
        + "WHERE s.revision > ? AND c.removed = 0 ORDER BY +s.card_id", [.integer(since)]
    ) { Wire.Score(cardId: $0.text(0) ?? "", score: $0.real(1), scoredAt: $0.integer(2)) }
  }

  public func card(id: String) throws -> Wire.Card? {
    try lane.run { db in
      try db.rows(
        "SELECT id, type, title, body, source, url, reveal, published_at FROM cards "
          + "WHERE id = ? AND removed = 0", [.text(id)]
      ) { row in
        Wire.Card(
          id: row.text(0) ?? "", type: row.text(1) ?? "", title: row.text(2), body: row.text(3),
          source: row.text(4), url: row.text(5), reveal: row.text(6), publishedAt: row.integer(7))
      }.first
    }
  }

  // MARK: - Decks

  public func load(cards: [Wire.Card], types: [Wire.CardType]) throws -> LoadReport {
    let now = Clock.milliseconds()
    return try changing { db, revision in
      var report = LoadReport()
      var typesChanged = 0
      for type in types {
        try db.run(
          "INSERT INTO types (name, label, colour, description, revision) VALUES (?, ?, ?, ?, ?) "
            + "ON CONFLICT (name) DO UPDATE SET label = excluded.label, colour = excluded.colour, "
            + "description = excluded.description, revision = excluded.revision, removed = 0 "
            + "WHERE (label, colour, description, removed) IS NOT "
            + "(excluded.label, excluded.colour, excluded.description, 0)",
          [
            .text(type.name), .text(type.label), .text(type.colour), .text(type.description),
            .integer(revision),
          ])
        typesChanged += db.changes
      }
      try db.execute(
        "CREATE TEMP TABLE IF NOT EXISTS listed (id TEXT PRIMARY KEY); DELETE FROM listed;")
      let list = try db.statement("INSERT OR IGNORE INTO listed (id) VALUES (?)")
      for card in cards {
        try list.run([.text(card.id)])
        let values: [SQLiteValue] = [
          .text(card.id), .text(card.type), .text(card.title), .text(card.body ?? ""),
          .text(card.source), .text(card.url), .text(card.reveal), .integer(now),
          .integer(revision),
        ]
        let existed = try db.rows("SELECT removed FROM cards WHERE id = ?", [.text(card.id)]) {
          $0.integer(0)
        }.first
        try db.run(
          "INSERT INTO cards (id, type, title, body, source, url, reveal, published_at, revision) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
            + "type = excluded.type, title = excluded.title, body = excluded.body, "
            + "source = excluded.source, url = excluded.url, reveal = excluded.reveal, "
            + "revision = excluded.revision, removed = 0, published_at = CASE WHEN removed "
            + "THEN excluded.published_at ELSE published_at END "
            + "WHERE (type, title, body, source, url, reveal, removed) IS NOT (excluded.type, "
            + "excluded.title, excluded.body, excluded.source, excluded.url, excluded.reveal, 0)",
          values)
        if db.changes > 0 {
          if existed == nil || existed == 1 { report.added += 1 } else { report.changed += 1 }
        }
      }
      try db.run(
        "UPDATE cards SET removed = 1, revision = ? WHERE removed = 0 "
          + "AND id NOT IN (SELECT id FROM listed)", [.integer(revision)])
      report.removed = db.changes
      return (report, report != LoadReport() || typesChanged > 0)
    }
  }

  // MARK: - Operators

  public func score(cardId: String, score: Double, at time: Int64) throws -> Bool {
    try changing { db, revision in
      let known = try db.rows("SELECT 1 FROM cards WHERE id = ? AND removed = 0", [.text(cardId)]) {
        _ in true
      }
      guard !known.isEmpty else { return (false, false) }
      try db.run(
        "INSERT OR REPLACE INTO scores (card_id, score, scored_at, revision) VALUES (?, ?, ?, ?)",
        [.text(cardId), .real(score), .integer(time), .integer(revision)])
      return (true, true)
    }
  }

  public func notify(id: String, text: String, at time: Int64) throws {
    try changing { db, revision in
      try db.run(
        "INSERT OR REPLACE INTO notifications (id, text, created_at, revision) VALUES (?, ?, ?, ?)",
        [.text(id), .text(text), .integer(time), .integer(revision)])
      return ((), true)
    }
  }

  public func setStatus(install: String, to status: String) throws -> Bool {
    try changing(for: install) { db, _ in
      try db.run(
        "UPDATE installs SET status = ? WHERE install_id = ?", [.text(status), .text(install)])
      let known = db.changes > 0
      return (known, known)
    }
  }

  // MARK: - Tokens

  /// Stores the install's one live token: any older one is revoked.
  public func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) throws -> String {
    let (distinct, revoked) = try lane.run { db in
      try db.transaction(immediate: true) {
        try db.run(
          "INSERT OR IGNORE INTO installs (install_id, distinct_id) VALUES (?, ?)",
          [.text(installId), .text("d-" + Token.random(bytes: 8))])
        let revoked = try db.rows(
          "SELECT hash FROM tokens WHERE install_id = ?", [.text(installId)]
        ) { $0.text(0) ?? "" }
        try db.run("DELETE FROM tokens WHERE install_id = ?", [.text(installId)])
        try db.run(
          "INSERT INTO tokens (hash, install_id, expires_at) VALUES (?, ?, ?)",
          [.text(Token.hex(hash)), .text(installId), .integer(expiresAt)])
        let distinct =
          try db.rows(
            "SELECT distinct_id FROM installs WHERE install_id = ?", [.text(installId)]
          ) { $0.text(0) ?? "" }.first ?? ""
        return (distinct, revoked)
      }
    }
    knownTokens.forget(revoked)
    return distinct
  }

  /// Rows a prune deletes in one transaction: every other request waits for one batch at
  /// most, never for the whole prune.
  static let pruneBatch = 2_000

  public func prune(at time: Int64, eventsBefore: Int64?) throws -> PruneReport {
    var report = PruneReport()
    try lane.run { db in
      try db.transaction(immediate: true) {
        try db.run("DELETE FROM tokens WHERE expires_at <= ?", [.integer(time)])
        report.tokens = db.changes
        // The dashboard's totals past what it shows: hours past its chart, installs past 30
        // days.
        let (hours, installs) = DashboardData.kept(at: time)
        try db.run("DELETE FROM dash_hours WHERE hour < ?", [.integer(hours)])
        try db.run("DELETE FROM dash_installs WHERE last_seen < ?", [.integer(installs)])
      }
    }
    if let eventsBefore {
      while true {
        let deleted = try lane.run { db in
          try db.transaction(immediate: true) {
            try db.run(
              """
              DELETE FROM events WHERE seq IN (
                SELECT seq FROM events WHERE received_at < ? LIMIT ?)
              """, [.integer(eventsBefore), .integer(Int64(Self.pruneBatch))])
            return db.changes
          }
        }
        report.events += deleted
        if deleted < Self.pruneBatch { break }
      }
    }
    while true {
      let forgotten = try lane.run { db in
        try db.transaction(immediate: true) {
          let forgotten = try db.rows(
            """
            SELECT install_id FROM installs i
            WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.install_id = i.install_id)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.install_id = i.install_id)
            LIMIT ?
            """, [.integer(Int64(Self.pruneBatch / 10))]
          ) { $0.text(0) ?? "" }
          for install in forgotten {
            for table in ["installs", "seen", "reactions", "user_scores"] {
              try db.run("DELETE FROM \(table) WHERE install_id = ?", [.text(install)])
            }
          }
          return forgotten.count
        }
      }
      report.installs += forgotten
      if forgotten < Self.pruneBatch / 10 { break }
    }
    return report
  }

  /// The install of a token that has not expired at `time`. A token found is remembered for
  /// a second, so a client's requests in that second cost no query (each query's read
  /// transaction takes SQLite's file locks, most of a 304's cost), and a token revoked in the
  /// store, by any process, is refused a second later at most.
  public func install(forToken hash: [UInt8], at time: Int64) throws -> String? {
    let key = Token.hex(hash)
    if let known = knownTokens.install(key, at: time) { return known }
    let found = try lane.run { db in
      try db.rows(
        "SELECT install_id, expires_at FROM tokens WHERE hash = ? AND expires_at > ?",
        [.text(key), .integer(time)]
      ) { (install: $0.text(0) ?? "", expiresAt: $0.integer(1)) }.first
    }
    if let found {
      knownTokens.remember(key, install: found.install, expiresAt: found.expiresAt, checkedAt: time)
    }
    return found?.install
  }
}

/// The wall clock in milliseconds since the epoch.
enum Clock {
  static func milliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
