import Decks
import FeedCore
import Foundation
import TestFixtures
import Testing

@testable import Store

/// Every card of the index, read back through the catalog and the ordinals.
private func indexedCards(_ index: DeckIndex) throws -> [String: [String]] {
  var cards: [String: [String]] = [:]
  let reader = index.reader()
  for entry in try index.catalog() {
    cards[entry.type.name] = try (0..<entry.cards).map {
      try #require(try reader.card(type: entry.type.name, ordinal: $0)).id
    }.sorted()
    #expect(try reader.card(type: entry.type.name, ordinal: entry.cards) == nil)
  }
  return cards
}

@Suite struct DeckIndexSyncTests {
  @Test func importsCardsWithDenseOrdinalsAndHeaderMetadata() throws {
    let home = try TestHome()
    let path = try home.deck(
      "a.jsonl",
      [
        #"{"deck": "a", "types": {"fact": {"label": "Fact", "colour": "cyan", "description": "True."}}}"#,
        cardLine("f1"), cardLine("w1", type: "word"), cardLine("f2"),
        #"{"id": "t1", "type": "trivia", "title": "Q", "body": "B", "source": "S", "url": "U", "reveal": "R"}"#,
      ])
    let report = try home.index.sync(decks: [path])
    #expect(report == SyncReport(indexed: [path]))
    #expect(
      try home.index.catalog() == [
        TypeCount(
          type: CardType(name: "fact", label: "Fact", colour: "cyan", description: "True."),
          cards: 2),
        TypeCount(type: CardType(name: "trivia"), cards: 1),
        TypeCount(type: CardType(name: "word"), cards: 1),
      ])
    #expect(
      try indexedCards(home.index) == ["fact": ["f1", "f2"], "trivia": ["t1"], "word": ["w1"]])
    #expect(
      try home.index.card(id: "t1")
        == Card(id: "t1", type: "trivia", title: "Q", body: "B", source: "S", url: "U", reveal: "R")
    )
    #expect(try home.index.card(id: "nope") == nil)
  }

  @Test func badLinesAreSkippedReportedAndRememberedAcrossSyncs() throws {
    let home = try TestHome()
    let path = try home.deck("a.jsonl", [cardLine("a"), "{oops", cardLine("b")])
    let problem = DeckProblem(path: path, line: 2, message: "not valid JSON")
    #expect(try home.index.sync(decks: [path]).problems == [problem])
    #expect(try indexedCards(home.index) == ["fact": ["a", "b"]])
    let again = try home.index.sync(decks: [path])
    #expect(again == SyncReport(problems: [problem]))
  }

  @Test func unchangedDeckIsNotReadAgain() throws {
    let home = try TestHome()
    let path = try home.deck("a.jsonl", [cardLine("a", body: "one")])
    try home.setModified(path, 1_000_000)
    _ = try home.index.sync(decks: [path])
    // Same size, same mtime, other content: a sync that read the file would see "two".
    try home.deck("a.jsonl", [cardLine("a", body: "two")])
    try home.setModified(path, 1_000_000)
    #expect(try home.index.sync(decks: [path]) == SyncReport())
    #expect(try home.index.card(id: "a")?.body == "one")
  }

  @Test func touchWithoutChangeDoesNotReindex() throws {
    let home = try TestHome()
    let path = try home.deck("a.jsonl", [cardLine("a")])
    try home.setModified(path, 1_000_000)
    _ = try home.index.sync(decks: [path])
    try home.setModified(path, 2_000_000)
    #expect(try home.index.sync(decks: [path]) == SyncReport())
    try home.reopen()
    #expect(try home.index.sync(decks: [path]) == SyncReport())
  }

  @Test func contentChangeReindexes() throws {
    let home = try TestHome()
    let path = try home.deck("a.jsonl", [cardLine("a", body: "one"), cardLine("b")])
    try home.setModified(path, 1_000_000)
    _ = try home.index.sync(decks: [path])
    try home.deck("a.jsonl", [cardLine("a", body: "two"), cardLine("c", type: "word")])
    try home.setModified(path, 1_000_000)
    try home.setModified(path, 1_000_001)
    #expect(try home.index.sync(decks: [path]) == SyncReport(indexed: [path]))
    #expect(try home.index.card(id: "a")?.body == "two")
    #expect(try home.index.card(id: "b") == nil)
    #expect(try indexedCards(home.index) == ["fact": ["a"], "word": ["c"]])
  }

  @Test func deckLeftOutOfTheListLeavesTheIndex() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", (0..<5).map { cardLine("a\($0)") })
    let b = try home.deck("b.jsonl", (0..<3).map { cardLine("b\($0)") })
    _ = try home.index.sync(decks: [a, b])
    #expect(try home.index.sync(decks: [b]) == SyncReport(removed: [a]))
    #expect(try indexedCards(home.index) == ["fact": ["b0", "b1", "b2"]])
    #expect(try home.index.card(id: "a0") == nil)
  }

  @Test func deletedDeckFileIsOneProblemAndLeavesTheIndex() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", [cardLine("a"), cardLine("w", type: "word")])
    let b = try home.deck("b.jsonl", [cardLine("b")])
    _ = try home.index.sync(decks: [a, b])
    try FileManager.default.removeItem(atPath: a)
    let report = try home.index.sync(decks: [a, b])
    #expect(report.removed == [a])
    #expect(
      report.problems.map(\.description) == [
        "\(a): cannot read the deck: No such file or directory"
      ])
    #expect(try indexedCards(home.index) == ["fact": ["b"]])
    #expect(try home.index.catalog().map(\.type.name) == ["fact"])
  }

  @Test func removalInTheMiddleKeepsOrdinalsDense() throws {
    let home = try TestHome()
    let decks = try (0..<3).map { d in
      try home.deck(
        "\(d).jsonl", (0..<4).map { cardLine("d\(d)c\($0)", type: $0 % 2 == 0 ? "x" : "y") })
    }
    _ = try home.index.sync(decks: decks)
    _ = try home.index.sync(decks: [decks[0], decks[2]])
    #expect(
      try indexedCards(home.index) == [
        "x": ["d0c0", "d0c2", "d2c0", "d2c2"], "y": ["d0c1", "d0c3", "d2c1", "d2c3"],
      ])
  }

  @Test func duplicateIdLaterDeckWinsAndIsReported() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", [cardLine("x", body: "from a"), cardLine("a")])
    let b = try home.deck("b.jsonl", [cardLine("b"), cardLine("x", body: "from b")])
    let report = try home.index.sync(decks: [a, b])
    #expect(report.problems.map(\.description) == ["\(b):2: duplicate id \"x\" replaces \(a):1"])
    #expect(try home.index.card(id: "x")?.body == "from b")
    #expect(try indexedCards(home.index) == ["fact": ["a", "b", "x"]])
  }

  @Test func duplicateIdWithinADeckLaterLineWins() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", [cardLine("x", body: "first"), cardLine("x", body: "second")])
    let report = try home.index.sync(decks: [a])
    #expect(report.problems.map(\.description) == ["\(a):2: duplicate id \"x\" replaces \(a):1"])
    #expect(try home.index.card(id: "x")?.body == "second")
    #expect(try indexedCards(home.index) == ["fact": ["x"]])
  }

  @Test func shadowedCardComesBackWhenTheWinnerLeaves() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", [cardLine("x", body: "from a")])
    let b = try home.deck("b.jsonl", [cardLine("x", body: "from b")])
    _ = try home.index.sync(decks: [a, b])
    _ = try home.index.sync(decks: [a])
    #expect(try home.index.card(id: "x")?.body == "from a")
    #expect(try indexedCards(home.index) == ["fact": ["x"]])
  }

  @Test func reorderingTheListChangesTheWinner() throws {
    let home = try TestHome()
    let a = try home.deck("a.jsonl", [cardLine("x", body: "from a")])
    let b = try home.deck("b.jsonl", [cardLine("x", body: "from b")])
    _ = try home.index.sync(decks: [a, b])
    _ = try home.index.sync(decks: [b, a])
    #expect(try home.index.card(id: "x")?.body == "from a")
    #expect(try indexedCards(home.index) == ["fact": ["x"]])
  }

  @Test func linesAcrossChunksAndCRLFAreRead() throws {
    let home = try TestHome()
    let long = String(repeating: "é", count: 500_000)
    let path = home.url.appendingPathComponent("long.jsonl").path
    let text = [
      cardLine("a"), cardLine("long", body: long), cardLine("across", body: long), cardLine("b"),
    ].joined(separator: "\r\n")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(try home.index.sync(decks: [path]).problems.isEmpty)
    #expect(try home.index.card(id: "across")?.body == long)
    #expect(try indexedCards(home.index) == ["fact": ["a", "across", "b", "long"]])
  }

  @Test func manyBatchesImportEveryCard() throws {
    let home = try TestHome()
    let path = try home.deck(
      "big.jsonl", (0..<25_000).map { cardLine("c\($0)", type: "t\($0 % 3)") })
    _ = try home.index.sync(decks: [path])
    #expect(try home.index.catalog().map(\.cards) == [8334, 8333, 8333])
    #expect(try home.index.reader().card(type: "t2", ordinal: 8332) != nil)
  }

  @Test func databaseIsWALWithFullSync() throws {
    let home = try TestHome()
    #expect(try home.database.integrityCheck() == "ok")
    #expect(try home.database.pragma("journal_mode") == "wal")
    #expect(try home.database.pragma("synchronous") == "2")
  }
}

@Suite struct DeckIndexRecoveryTests {
  @Test func anImportCutShortIsRedoneByTheNextSync() throws {
    let home = try TestHome()
    let path = try home.deck("a.jsonl", (0..<50).map { cardLine("c\($0)", type: "t\($0 % 2)") })
    _ = try home.index.sync(decks: [path])
    // What a SIGKILL in the middle of a first import leaves: the deck pending, part of its
    // cards, the card indexes dropped.
    try home.database.write { db in
      try db.execute(
        """
        UPDATE decks SET size = -1, hash = ''; DELETE FROM cards WHERE line > 20;
        DROP INDEX cards_by_ordinal; DROP INDEX cards_by_id
        """)
    }
    try home.reopen()
    #expect(try home.index.sync(decks: [path]) == SyncReport(indexed: [path]))
    #expect(try home.index.catalog().map(\.cards) == [25, 25])
    #expect(try home.index.reader().card(type: "t1", ordinal: 24) != nil)
    let indexes = try home.database.read { db in
      try db.rows("SELECT name FROM sqlite_master WHERE tbl_name = 'cards' AND type = 'index'") {
        $0.text(0) ?? ""
      }
    }
    #expect(Set(indexes).isSuperset(of: ["cards_by_ordinal", "cards_by_id", "cards_by_deck"]))
    #expect(try home.database.integrityCheck() == "ok")
  }
}
