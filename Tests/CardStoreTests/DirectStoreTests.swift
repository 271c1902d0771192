import CardStore
import FeedCore
import StateFile
import Foundation
import GRDB
import Testing

/// Runs `sql` on the database file directly (what no ctfo code would do).
private func execute(_ sql: String, at path: String) throws {
  try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: sql) }
}

@Suite struct DirectStoreTests {
  private func synced(_ home: TestHome) throws -> (path: String, decks: [String]) {
    let decks = [
      try home.deck("a.jsonl", [cardLine("a1", type: "fact"), cardLine("a2", type: "word")]),
      try home.deck("b.jsonl", [cardLine("b1", type: "fact")]),
    ]
    _ = try home.index.sync(decks: decks)
    return (home.database.path, decks)
  }

  @Test func opensADatabaseThatASyncLeftCurrentAndReadsWhatGRDBReads() throws {
    let home = try TestHome()
    let (path, decks) = try synced(home)
    try home.state.setEnabled("word", false)
    let store = try #require(try DirectStore.open(path: path, decks: decks))
    #expect(try store.catalog() == (try home.index.catalog()))
    #expect(try store.disabledTypes() == ["word"])
    #expect(try store.reader.card(type: "fact", ordinal: 0) != nil)
  }

  @Test func saysNoWhenASyncOrAMigrationIsNeeded() throws {
    let home = try TestHome()
    let (path, decks) = try synced(home)
    #expect(try DirectStore.open(path: home.url.path + "/none.sqlite", decks: decks) == nil)
    #expect(try DirectStore.open(path: path, decks: Array(decks.reversed())) == nil, "moved")
    #expect(try DirectStore.open(path: path, decks: [decks[0]]) == nil, "a deck left")
    let extra = try home.deck("c.jsonl", [cardLine("c1")])
    #expect(try DirectStore.open(path: path, decks: decks + [extra]) == nil, "a new deck")
    try home.setModified(decks[1], 1_000)
    #expect(try DirectStore.open(path: path, decks: decks) == nil, "a deck touched")
    _ = try home.index.sync(decks: decks)
    #expect(try DirectStore.open(path: path, decks: decks) != nil)
    try FileManager.default.removeItem(atPath: decks[1])
    #expect(try DirectStore.open(path: path, decks: decks) == nil, "a deck deleted")
  }

  @Test func saysNoWhileADeckHasProblemsToReport() throws {
    let home = try TestHome()
    let deck = try home.deck("bad.jsonl", [cardLine("x1"), "{not json"])
    _ = try home.index.sync(decks: [deck])
    #expect(try DirectStore.open(path: home.database.path, decks: [deck]) == nil)
  }

  @Test func saysNoWhenTheSchemaOrTheCardIndexesAreNotCurrent() throws {
    let home = try TestHome()
    let (path, decks) = try synced(home)
    try execute("DROP INDEX cards_by_id", at: path)
    #expect(try DirectStore.open(path: path, decks: decks) == nil)
    try home.reopen()
    #expect(try DirectStore.open(path: path, decks: decks) != nil)
    try execute("DELETE FROM grdb_migrations", at: path)
    #expect(try DirectStore.open(path: path, decks: decks) == nil)
  }

  @Test func appendsHistoryAfterTheNewestRowInOneTransaction() throws {
    let home = try TestHome()
    let (path, decks) = try synced(home)
    try home.state.append([HistoryEntry(index: 0, cardID: "a1", type: "fact", title: nil, shownAt: 1)])
    let store = try #require(try DirectStore.open(path: path, decks: decks))
    let cards = [try #require(try store.reader.card(type: "fact", ordinal: 1)), try #require(try store.reader.card(type: "word", ordinal: 0))]
    let written = try store.appendShown(cards, time: 42)
    #expect(written.map(\.index) == [1, 2])
    let history = try home.state.history(limit: 10)
    #expect(history.map(\.index) == [2, 1, 0])
    #expect(history.prefix(2).map(\.cardID) == cards.reversed().map(\.id))
    #expect(history.prefix(2).allSatisfy { $0.shownAt == 42 && $0.reaction == nil })
  }
}

@Suite struct DirectStoreStateTests {
  @Test func theMigrationsItRequiresAreTheOnesTheMigratorApplies() throws {
    let home = try TestHome()
    let applied = try DatabaseQueue(path: home.database.path).read {
      try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }
    #expect(applied == StateSchema.migrations)
  }

  @Test func remembersTheConfigFileOnlyAsItWasWhenRead() throws {
    let home = try TestHome()
    _ = try home.index.sync(decks: [])
    let store = try #require(try DirectStore.open(path: home.database.path, decks: []))
    let read = FileStamp(size: 16, mtime: 1_700_000_000.25, inode: 42)
    #expect(try store.configLookahead(path: "/c.toml", stamp: read) == nil, "never read")
    try store.recordConfig(path: "/c.toml", stamp: read, lookahead: 7)
    #expect(try store.configLookahead(path: "/c.toml", stamp: read) == 7)
    for changed in [
      FileStamp(size: 17, mtime: read.mtime, inode: read.inode),
      FileStamp(size: read.size, mtime: read.mtime + 0.001, inode: read.inode),
      FileStamp(size: read.size, mtime: read.mtime, inode: 43), .missing,
    ] {
      #expect(try store.configLookahead(path: "/c.toml", stamp: changed) == nil)
    }
    #expect(try store.configLookahead(path: "/other.toml", stamp: read) == nil, "another file")
    try store.recordConfig(path: "/c.toml", stamp: .missing, lookahead: 5)
    #expect(try store.configLookahead(path: "/c.toml", stamp: .missing) == 5)
    #expect(try store.configLookahead(path: "/c.toml", stamp: read) == nil, "replaced")
  }

  @Test func aTransactionThatThrowsWritesNothingAndInnerOnesJoinTheOuter() throws {
    struct Stop: Error {}
    let home = try TestHome()
    let deck = try home.deck("a.jsonl", [cardLine("a1", type: "fact")])
    _ = try home.index.sync(decks: [deck])
    let store = try #require(try DirectStore.open(path: home.database.path, decks: [deck]))
    let card = try #require(try store.reader.card(type: "fact", ordinal: 0))
    #expect(throws: Stop.self) {
      try store.transaction {
        _ = try store.appendShown([card, card], time: 1)
        throw Stop()
      }
    }
    #expect(try home.state.history(limit: 10).isEmpty)
    let written = try store.transaction {
      try store.appendShown([card], time: 1) + store.appendShown([card], time: 2)
    }
    #expect(written.map(\.index) == [0, 1])
    #expect(try home.state.history(limit: 10).map(\.index) == [1, 0])
  }
}

@Suite struct FileStampTests {
  @Test func tellsAMissingFileAFolderAndEveryChangeOfAFile() throws {
    let home = try TestHome()
    let path = home.url.path + "/f.txt"
    #expect(FileStamp.of(path) == .missing)
    #expect(FileStamp.of(home.url.path) == nil, "a folder")
    try home.deck("f.txt", ["one"])
    let first = try #require(FileStamp.of(path))
    #expect(first.size == 4 && first.inode != 0)
    #expect(FileStamp.ofReadable(path) == first)
    try home.setModified(path, 1_000.5)
    let touched = try #require(FileStamp.of(path))
    #expect(touched.mtime == 1_000.5 && touched != first)
    try home.deck("f.txt", ["three"])
    #expect(FileStamp.of(path)?.size == 6)
    #expect(FileStamp.ofReadable(home.url.path + "/none") == nil)
  }
}

@Suite struct DirectStoreWALTests {
  /// A database synced with one deck, by a `StateDatabase` that is closed again.
  private func synced(in folder: URL) throws -> (path: String, deck: String) {
    let path = folder.appendingPathComponent("state.sqlite").path
    let deck = folder.appendingPathComponent("a.jsonl").path
    try Data((cardLine("a1", type: "fact") + "\n").utf8).write(to: URL(fileURLWithPath: deck))
    _ = try DeckIndex(database: try StateDatabase(path: path)).sync(decks: [deck])
    return (path, deck)
  }

  @Test func leavesASmallWALForTheNextOpenerAndCheckpointsALargeOne() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-wal-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (path, deck) = try synced(in: folder)
    let wal = path + "-wal"
    #expect(!FileManager.default.fileExists(atPath: wal), "GRDB's close checkpoints")
    func append(_ count: Int) throws {
      let store = try #require(try DirectStore.open(path: path, decks: [deck]))
      let card = try #require(try store.reader.card(type: "fact", ordinal: 0))
      _ = try store.appendShown(Array(repeating: card, count: count), time: 1)
    }
    try append(1)
    let small = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
    #expect(small > 0 && small <= 64 * 4_120, "one row stays in the WAL")
    try append(20_000)
    #expect(!FileManager.default.fileExists(atPath: wal), "a large batch is checkpointed at close")
    let rows = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM history") }
    #expect(rows == 20_001)
  }
}
