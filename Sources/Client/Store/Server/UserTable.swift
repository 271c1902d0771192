import SQL
import CTFOWire

/// The user as the server last described it: its status (a column of `server_session`) and
/// its notifications (`NotificationTable`).
enum UserTable {
  static func replace(_ user: Wire.User, _ db: Connection) throws {
    try db.run("UPDATE server_session SET user_status = ? WHERE id = 1", [.text(user.status)])
    try NotificationTable.replace(with: user.notifications, db)
  }
}
