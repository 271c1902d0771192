import SQL
import CTFOWire

/// The user as the server last described it: its status (a column of `server_session`) and
/// its notifications (`NotificationTable`).
enum UserTable {
  /// The most characters of the status kept, as of a notification's text: the server's word
  /// for the user, not a document.
  static let statusLimit = 1000

  static func replace(_ user: Wire.User, _ db: Connection) throws {
    try db.run(
      "UPDATE server_session SET user_status = ? WHERE id = 1",
      [.text(user.status.map { String($0.prefix(statusLimit)) })])
    try NotificationTable.replace(with: user.notifications, db)
  }
}
