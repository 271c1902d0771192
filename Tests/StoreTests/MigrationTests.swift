import SQL
import FeedCore
import Foundation
import Testing

@testable import Store

@Suite struct MigrationTests {
  /// A database as the GRDB release wrote it: migrations v1 and v2 recorded in
  /// `grdb_migrations`, `user_version` 0, with history, tombstones, events and settings.
  private func grdbEraDatabase(_ home: TestHome) throws -> String {
    let folder = home.url.appendingPathComponent("old")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("state.sqlite").path
    let db = try Connection(path: path, role: .writer)
    try db.execute("PRAGMA journal_mode = WAL")
    try db.execute(Migrations.all[0])
    try db.execute(Migrations.all[1])
    try db.execute(
      """
      CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
      INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
      INSERT INTO history VALUES (0, 'a', 'fact', 'A', 10, 'TFU'), (1, 'b', 'word', NULL, 11,
        'CTFO'), (2, 'c', 'fact', NULL, 12, NULL);
      INSERT INTO tombstones (history_idx, card_id, type, direction) VALUES (1, 'b', 'word', 'up');
      INSERT INTO reaction_events (history_idx, card_id, type, reaction, committed_at)
        VALUES (0, 'a', 'fact', 'TFU', 20);
      INSERT INTO disabled_types VALUES ('joke');
      INSERT INTO config_reads VALUES ('/c.toml', 16, 1.5, 42, 7);
      """)
    return path
  }

  private func tables(_ database: StateDatabase) throws -> Set<String> {
    try Set(
      database.read { db in
        try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" }
      })
  }

  @Test func upgradesADatabaseTheGRDBReleaseWroteAndKeepsEveryRow() throws {
    let home = try TestHome()
    let database = try StateDatabase(path: try grdbEraDatabase(home))
    let state = StateStore(database: database)
    #expect(try database.pragma("user_version") == "\(Migrations.latest)")
    #expect(
      try state.history(limit: 10) == [
        HistoryEntry(index: 2, cardID: "c", type: "fact", title: nil, shownAt: 12),
        HistoryEntry(index: 1, cardID: "b", type: "word", title: nil, shownAt: 11, reaction: .ctfo),
        HistoryEntry(index: 0, cardID: "a", type: "fact", title: "A", shownAt: 10, reaction: .tfu),
      ])
    #expect(
      try state.tombstones()
        == [Tombstone(historyIndex: 1, cardID: "b", type: "word", direction: .up)])
    #expect(try state.pendingReactionEvents().map(\.cardID) == ["a"])
    #expect(try state.disabledTypes() == ["joke"])
    let left = try tables(database)
    #expect(!left.contains("config_reads") && !left.contains("grdb_migrations"))
    #expect(left.isSuperset(of: ["decks", "cards", "card_types", "history", "tombstones"]))
    #expect(
      try state.append([ShownRecord(cardID: "d", type: "fact", title: nil, shownAt: 13)]) == [3])
    #expect(try database.integrityCheck() == "ok")
  }

  /// A state database that the last release on GRDB (commit fef1824) wrote itself: three
  /// swipes in the app (right, left, up: three tombstones), `ctfo next -n 2`, `ctfo disable
  /// word`, then its WAL checkpointed into the file.
  @Test func opensAndMigratesTheFileTheLastReleaseWrote() throws {
    let home = try TestHome()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/state-2026-11-23-fef1824.sqlite")
    let path = home.url.appendingPathComponent("released.sqlite").path
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let database = try StateDatabase(path: path)
    let state = StateStore(database: database)
    #expect(try database.pragma("user_version") == "\(Migrations.latest)")
    #expect(try database.integrityCheck() == "ok")
    let history = try state.history(limit: 10)
    #expect(history.map(\.cardID) == ["f1", "w1", "f2", "f3", "w2", "w1"])
    #expect(history.map(\.reaction) == [nil, nil, nil, .ctfo, .tifb, .tfu])
    #expect(
      try state.tombstones() == [
        Tombstone(historyIndex: 0, cardID: "w1", type: "word", direction: .right),
        Tombstone(historyIndex: 1, cardID: "w2", type: "word", direction: .left),
        Tombstone(historyIndex: 2, cardID: "f3", type: "fact", direction: .up),
      ])
    #expect(try state.disabledTypes() == ["word"])
    #expect(try DeckIndex(database: database).catalog().map(\.cards) == [3, 2])
    let left = try tables(database)
    #expect(!left.contains("config_reads") && !left.contains("grdb_migrations"))
    #expect(
      try state.append([ShownRecord(cardID: "f1", type: "fact", title: nil, shownAt: 1)]) == [6])
  }

  @Test func openingAgainChangesNothing() throws {
    let home = try TestHome()
    let path = try grdbEraDatabase(home)
    let schema = { (database: StateDatabase) in
      try database.read { db in
        try db.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name") {
          "\($0.text(0) ?? "") \($0.text(1) ?? "") \($0.text(2) ?? "")"
        }
      }
    }
    let first = try StateDatabase(path: path)
    let before = try schema(first)
    let second = try StateDatabase(path: path)
    #expect(try schema(second) == before)
    #expect(try second.pragma("user_version") == "\(Migrations.latest)")
    #expect(try StateStore(database: second).history(limit: 10).count == 3)
  }

  @Test func aDatabaseFromANewerCtfoIsRefused() throws {
    let home = try TestHome()
    try home.database.write { db in try db.execute("PRAGMA user_version = \(Migrations.latest + 1)")
    }
    #expect {
      try StateDatabase(path: home.database.path)
    } throws: { error in
      error as? StoreError
        == .newerSchema(
          path: home.database.path, version: Migrations.latest + 1, known: Migrations.latest)
        && "\(error)".contains("newer ctfo")
    }
  }
}
