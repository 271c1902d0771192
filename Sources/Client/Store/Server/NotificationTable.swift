import SQL
import CTFOWire

/// `server_notifications`: the server's notifications for the user, each marked once the app
/// dismissed it.
enum NotificationTable {
  /// The notifications of the last pull, at most 100; one dismissed before stays dismissed.
  static func replace(with notifications: [Wire.Notification], _ db: Connection) throws {
    let dismissed = Set(
      try db.rows("SELECT id FROM server_notifications WHERE dismissed = 1") { $0.text(0) ?? "" })
    try db.run("DELETE FROM server_notifications")
    for note in notifications.prefix(100) {
      try db.run(
        "INSERT OR REPLACE INTO server_notifications (id, text, created_at, expires_at, dismissed) "
          + "VALUES (?, ?, ?, ?, ?)",
        [
          .text(note.id), .text(String(note.text.prefix(1000))),
          note.createdAt.map { .integer($0) } ?? .null,
          note.expiresAt.map { .integer($0) } ?? .null,
          .integer(dismissed.contains(note.id) ? 1 : 0),
        ])
    }
  }

  static func forgetAll(_ db: Connection) throws {
    try db.run("DELETE FROM server_notifications")
  }

  /// The texts not dismissed and not expired at `serverNow`, oldest first (`ctfo status`).
  static func texts(at serverNow: Int64, _ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT text FROM server_notifications WHERE dismissed = 0 "
        + "AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id",
      [.integer(serverNow)]
    ) { $0.text(0) ?? "" }
  }
}

extension ServerStore {
  /// The notifications not dismissed and not expired when this machine's clock reads `now`
  /// (milliseconds), newest first: their ids and texts. Expiry times are the server's: `now`
  /// is taken to the server's clock with the offset of the last auth, as `status(at:)` does.
  /// When the app dismisses the first, the next shows.
  public func notices(at now: Int64) throws -> [(id: String, text: String)] {
    try database.read { db in
      let offset = try SessionTable.clockOffset(db)
      let serverNow = ServerSession.serverTime(at: now, offset: offset ?? 0)
      return try db.rows(
        "SELECT id, text FROM server_notifications WHERE dismissed = 0 "
          + "AND (expires_at IS NULL OR expires_at > ?) "
          + "ORDER BY created_at DESC, id DESC", [.integer(serverNow)]
      ) { (id: $0.text(0) ?? "", text: $0.text(1) ?? "") }
    }
  }

  /// Marks a notification read: it does not show again, even when a pull sends it again.
  public func dismiss(id: String) throws {
    try database.write { db in
      try db.run("UPDATE server_notifications SET dismissed = 1 WHERE id = ?", [.text(id)])
    }
  }
}
