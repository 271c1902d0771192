import Decks
import Foundation
import Store
import TestFixtures
import Testing

/// Ids and type names: never empty, no control or invisible characters, bounded; checked alike on the
/// fast path and the JSON decoder's path, and no text is ever cut at a NUL in the database.
@Suite struct DeckNameTests {
  static let id256 = String(repeating: "i", count: 256)
  static let type64 = String(repeating: "t", count: 64)
  static let invisible = "has an invisible or bidi control character"

  /// Line by line: a deck's line and the problem it must give (nil: it loads).
  static let lines: [(String, String?)] = [
    (#"{"id":"a","type":"bt","title":"one","body":"b"}"#, nil),
    (#"{"id":"b","type":"bt\u0000","title":"two","body":"b"}"#, #""type" has a control character"#),
    (#"{"id":"a\u0000x","type":"bt","body":"b"}"#, #""id" has a control character"#),
    ("{\"id\":\"d\u{7F}\",\"type\":\"bt\",\"body\":\"b\"}", #""id" has a control character"#),
    ("{\"id\":\"c1\u{85}\",\"type\":\"bt\",\"body\":\"b\"}", #""id" has a control character"#),
    (#"{"id":"tab\t","type":"bt","body":"b"}"#, #""id" has a control character"#),
    (#"{"id":"bell","type":"b\u0007","body":"b"}"#, #""type" has a control character"#),
    (#"{"id":"","type":"bt","body":"b"}"#, #""id" is empty"#),
    (#"{"id":"e","type":"","body":"b"}"#, #""type" is empty"#),
    (#"{"id":"\#(id256)","type":"bt","body":"b"}"#, nil),
    (#"{"id":"\#(id256)x","type":"bt","body":"b"}"#, #""id" is over 256 bytes"#),
    (#"{"id":"\#(id256)\u00e9","type":"bt","body":"b"}"#, #""id" is over 256 bytes"#),
    (#"{"id":"t64","type":"\#(type64)","body":"b"}"#, nil),
    (#"{"id":"t65","type":"\#(type64)x","body":"b"}"#, #""type" is over 64 bytes"#),
    (#"{"id":"nul body","type":"bt","title":"a\u0000b","body":"c\u0000d"}"#, nil),
    (#"{"id":"rtl\u202e","type":"bt","body":"b"}"#, #""id" \#(invisible)"#),
    (#"{"id":"ls\u2028","type":"bt","body":"b"}"#, #""id" \#(invisible)"#),
    (#"{"id":"zwj","type":"b\u200dt","body":"b"}"#, #""type" \#(invisible)"#),
    (#"{"id":"caf\u00e9","type":"bt","body":"b"}"#, nil),
  ]

  @Test func badIdsAndTypeNamesAreReportedOnBothPaths() throws {
    let home = try TestHome()
    let path = try home.deck("names.jsonl", Self.lines.map(\.0))
    let expected = Self.lines.enumerated().compactMap { number, line in
      line.1.map { "\(path):\(number + 1): \($0)" }
    }
    let report = DeckCheck.check([path])
    #expect(report.problems.map(\.description) == expected)
    #expect(report.cards == 5)
  }

  @Test func badTypeNamesInAHeaderAreReported() throws {
    let home = try TestHome()
    let path = try home.deck(
      "header.jsonl", [#"{"deck":"d","types":{"ok":{},"bad\u0001":{}}}"#, cardLine("a")])
    #expect(
      DeckCheck.check([path]).problems.map(\.description) == [
        "\(path):1: a type name has a control character"
      ])
  }

  @Test func noDeckContentMakesTheDatabaseUnusable() throws {
    let home = try TestHome()
    let path = try home.deck(
      "nasty.jsonl",
      [#"{"deck":"d","types":{"ok":{},"x\u0000":{},"":{}}}"#] + Self.lines.map(\.0))
    let first = try home.index.sync(decks: [path])
    #expect(first.problems.count == Self.lines.count(where: { $0.1 != nil }) + 1)
    let good = try home.deck("good.jsonl", [cardLine("g")])
    for decks in [[path, good], [good, path], [path, good]] {
      _ = try home.index.sync(decks: decks)
      let catalog = try home.index.catalog()
      #expect(catalog.map(\.type.name).sorted() == ["bt", "fact", DeckNameTests.type64])
      for entry in catalog {
        for ordinal in 0..<entry.cards {
          #expect(try home.index.reader().card(type: entry.type.name, ordinal: ordinal) != nil)
        }
      }
    }
    let card = try #require(try home.index.card(id: "nul body"))
    #expect(card.title == "a\u{0}b")
    #expect(card.body == "c\u{0}d")
    #expect(try home.index.card(id: "a")?.title == "one")
  }
}
