import FeedCore
import Foundation
import SQL
import Store
import Testing

/// What emptying a delivered outbox costs the disk. Debian's SQLite deletes securely by default
/// (it overwrites every freed page), so emptying 100,000 delivered events wrote about 31,000
/// pages (the table's pages to the WAL, then to the database at the checkpoint) while the app's
/// swipes waited on the same disk. The state database deletes with `secure_delete = FAST`.
@Suite struct OutboxStorageTests {
  @Test func emptyingADeliveredOutboxWritesFewPages() throws {
    let home = try TestHome()
    #expect(try home.database.pragma("secure_delete") == "2", "FAST")
    let outbox = Outbox(database: home.database)
    let context = Outbox.Context(app: "test", locale: "C")
    let body = String(repeating: "a card's text ", count: 20)
    for chunk in 0..<20 {
      let events = (0..<1_000).map {
        AnalyticsEvent("Focus", ["card": .string("\(chunk)-\($0) \(body)"), "ms": .integer(1)])
      }
      try outbox.record(events, at: 1_700_000_000, context: context)
    }
    let batch = try outbox.batch(for: "ctfo", limit: 30_000, bytes: 1 << 30)
    #expect(batch.count >= 20_000)
    // The events into the database, and an empty WAL to count what the emptying writes.
    try Connection(path: home.url.appendingPathComponent("state.sqlite").path, role: .reader)
      .execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let wal = home.url.appendingPathComponent("state.sqlite-wal").path
    #expect(size(wal) == 0)
    #expect(size(home.url.appendingPathComponent("state.sqlite").path) > 4_000_000)

    try outbox.delivered(batch, to: "ctfo", at: 0, sinks: ["ctfo"])
    #expect(try outbox.all().isEmpty)
    #expect(size(wal) < 100 * 4_096, "the WAL after emptying: \(size(wal)) bytes")
  }

  private func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }
}
