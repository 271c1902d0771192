import CTFOWire
import Testing

@testable import Store

/// The user's status from a pull is kept capped, as a notification's text is: a server cannot
/// make every read of the session, and `ctfo status`, carry megabytes.
struct UserStatusTests {
  private let server = "http://127.0.0.1:8080"

  @Test func aHugeStatusIsKeptAndReadCapped() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    let session = try store.session(for: server)
    let huge = "é" + String(repeating: "s", count: 5_000_000)
    try store.apply(
      Wire.Pull(cacheKey: "k", full: true, user: Wire.User(status: huge, notifications: [])),
      session: session, at: 0)
    let status = try #require(try store.status(at: 0).userStatus)
    #expect(status.count == UserTable.statusLimit && huge.hasPrefix(status))
    let stored = try home.database.read { db in
      try db.rows("SELECT length(user_status) FROM server_session WHERE id = 1") { $0.integer(0) }
    }
    #expect(stored == [Int64(UserTable.statusLimit)])
  }

  /// A status an earlier version kept whole is read capped all the same.
  @Test func aStatusStoredWholeBeforeIsReadCapped() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    let session = try store.session(for: server)
    try store.apply(
      Wire.Pull(cacheKey: "k", full: true, user: Wire.User(status: "ok", notifications: [])),
      session: session, at: 0)
    try home.database.write { db in
      try db.run(
        "UPDATE server_session SET user_status = ? WHERE id = 1",
        [.text(String(repeating: "w", count: 100_000))])
    }
    #expect(try store.status(at: 0).userStatus?.count == UserTable.statusLimit)
  }

  @Test func aShortStatusIsKeptAsItIs() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    let session = try store.session(for: server)
    try store.apply(
      Wire.Pull(cacheKey: "k", full: true, user: Wire.User(status: "gold ✓", notifications: [])),
      session: session, at: 0)
    #expect(try store.status(at: 0).userStatus == "gold ✓")
  }
}
