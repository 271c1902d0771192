import CTFOWire
import SQL

/// The `server_session` row (id 1): the server, the install, the token, the clock offset, the
/// pulls' cache keys, and how the last pull went.
enum SessionTable {
  static func stored(_ db: Connection) throws -> ServerSession? {
    try db.rows(
      "SELECT server, install_id, token, token_expires_at, distinct_id, clock_offset, "
        + "cache_key_hot, cache_key_recent FROM server_session WHERE id = 1"
    ) { row in
      var keys: [String: String] = [:]
      keys[PullFeed.hot.rawValue] = row.text(6)
      keys[PullFeed.recent.rawValue] = row.text(7)
      // An offset no auth accepts (an older version stored any): none, and no token, so that
      // the next request authenticates and measures it again.
      let offset = row.integer(5)
      let sane = ServerSession.isSane(offset: offset)
      return ServerSession(
        server: row.text(0) ?? "", installId: row.text(1) ?? "", token: sane ? row.text(2) : nil,
        tokenExpiresAt: row.isNull(3) ? nil : row.integer(3), distinctId: row.text(4),
        clockOffset: sane ? offset : 0, cacheKeys: keys)
    }.first
  }

  /// An upsert, not `INSERT OR REPLACE`: a replaced row would lose the columns not named here
  /// (the user's status, the last pull and its problem).
  static func write(_ session: ServerSession, _ db: Connection) throws {
    try db.run(
      "INSERT INTO server_session (id, server, install_id, token, token_expires_at, "
        + "distinct_id, clock_offset, cache_key_hot, cache_key_recent) "
        + "VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        + "server = excluded.server, install_id = excluded.install_id, token = excluded.token, "
        + "token_expires_at = excluded.token_expires_at, distinct_id = excluded.distinct_id, "
        + "clock_offset = excluded.clock_offset, cache_key_hot = excluded.cache_key_hot, "
        + "cache_key_recent = excluded.cache_key_recent",
      [
        .text(session.server), .text(session.installId), .text(session.token),
        session.tokenExpiresAt.map { .integer($0) } ?? .null, .text(session.distinctId),
        .integer(session.clockOffset), .text(session.cacheKeys[PullFeed.hot.rawValue]),
        .text(session.cacheKeys[PullFeed.recent.rawValue]),
      ])
  }

  /// What the last server said of this user and its pulls, forgotten: it is not the new one's.
  static func forgetLastServer(_ db: Connection) throws {
    try db.run(
      "UPDATE server_session SET user_status = NULL, last_pull_at = NULL, "
        + "last_problem = NULL WHERE id = 1")
  }

  static func forgetCacheKeys(_ db: Connection) throws {
    try db.run(
      "UPDATE server_session SET cache_key_hot = NULL, cache_key_recent = NULL WHERE id = 1")
  }

  static func recordPull(at time: Int64, problem: String?, _ db: Connection) throws {
    try db.run(
      "UPDATE server_session SET last_pull_at = ?, last_problem = ? WHERE id = 1",
      [.integer(time), .text(problem)])
  }

  /// A pull applied at `time`: the last one, and no problem.
  static func pulled(at time: Int64, _ db: Connection) throws {
    try db.run(
      "UPDATE server_session SET last_pull_at = ?, last_problem = NULL WHERE id = 1",
      [.integer(time)])
  }

  /// The server, the last pull and its problem, the user's status and the install, as
  /// `ctfo status` shows them.
  static func status(_ db: Connection) throws -> ServerStore.Status {
    var status = ServerStore.Status()
    let rows = try db.rows(
      // A status an earlier version kept whole is read capped.
      "SELECT server, last_pull_at, last_problem, "
        + "substr(user_status, 1, \(UserTable.statusLimit)), install_id FROM server_session "
        + "WHERE id = 1"
    ) { row in
      (row.text(0), row.isNull(1) ? nil : row.integer(1), row.text(2), row.text(3), row.text(4))
    }
    if let row = rows.first {
      (status.server, status.lastPullAt, status.lastProblem, status.userStatus) =
        (row.0, row.1, row.2, row.3)
      status.installId = row.4
    }
    return status
  }

  static func clockOffset(_ db: Connection) throws -> Int64? {
    try db.rows("SELECT clock_offset FROM server_session WHERE id = 1") {
      $0.integer(0)
    }.first
  }
}

extension ServerStore {
  /// The session for `server`: the stored one, or a new one (keeping the install id) when
  /// none is stored or it was for another server. A stored session is read without taking the
  /// write lock: every pull starts here, and the writer's commits (a card waits for its history
  /// row) should not wait behind an empty write transaction and its fsync.
  public func session(for server: String) throws -> ServerSession {
    if let stored = try database.read({ db in try SessionTable.stored(db) }),
      stored.server == server
    {
      return stored
    }
    return try database.write { db in
      let stored = try SessionTable.stored(db)
      if let stored, stored.server == server { return stored }
      let fresh = ServerSession(
        server: server, installId: try Outbox.identity(db).installID)
      try SessionTable.write(fresh, db)
      if stored != nil {
        try Self.forgetServer(db)
        try SessionTable.forgetLastServer(db)
      }
      return fresh
    }
  }

  /// Stores the session (after an auth or a pull that changed nothing but the token).
  public func save(_ session: ServerSession) throws {
    try database.write { db in try SessionTable.write(session, db) }
  }

  /// Makes the stored scores those of `feed` before it is pulled or dealt: `recent` scores
  /// every card by its time of publication, `hot` only the cards it ranks, so one feed's scores
  /// mixed with the other's would outrank them. The session holds a cache key for the feed
  /// pulled last only; when it holds another feed's, every server score is dropped with the
  /// keys, and the next pull, full, brings all of `feed`'s. A read when nothing switched.
  public func adopt(feed: PullFeed) throws {
    let other = PullFeed.allCases.filter { $0 != feed }.map(\.rawValue)
    func switched(_ db: Connection) throws -> Bool {
      guard let stored = try SessionTable.stored(db) else { return false }
      return other.contains { stored.cacheKeys[$0] != nil }
    }
    guard try database.read(switched) else { return }
    try database.write { db in
      guard try switched(db) else { return }
      try SessionTable.forgetCacheKeys(db)
      try ScoreTable.forgetAll(db)
    }
  }

  /// Notes how the last pull went: nil for a success, else its problem (for `ctfo status`).
  public func recordPull(at time: Int64, problem: String?) throws {
    try database.write { db in try SessionTable.recordPull(at: time, problem: problem, db) }
  }
}
