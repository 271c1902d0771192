import Decks
import FeedCore
import Testing

@testable import Store

/// A deck line of exactly 513 `[` made FoundationEssentials' JSON decoder trap (SIGILL) and
/// stopped every command that synced the deck (found by `make fuzz-long`). Lines
/// nested deeper than `JSONNesting.limit` are a problem of their line; nothing else is lost.
struct DeepNestingTests {
  @Test(arguments: [33, 511, 512, 513, 514, 100_000])
  func aDeeplyNestedLineIsAProblemOfItsLine(depth: Int) {
    var parser = DeckParser()
    for opening in ["[", "{\"a\":"] {
      let line = Array((String(repeating: opening, count: depth) + "\n").utf8)
      let parsed = line.withUnsafeBytes { parser.parse($0) }
      #expect(parsed == .problem("not a card: arrays or objects nested over 32 deep"), "\(depth)")
    }
  }

  @Test func theDeckAroundItStillLoads() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "deep.jsonl",
      [
        #"{"id":"a","type":"t","body":"one"}"#, String(repeating: "[", count: 513),
        #"{"id":"b","type":"t","body":"two"}"#,
      ])
    let report = try home.index.sync(decks: [deck])
    #expect(report.problems.map(\.line) == [2])
    #expect(try home.index.catalog().first?.cards == 2)
  }
}
