import CardStore
import FeedCore
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
