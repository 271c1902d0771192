import CTFOWire
import FeedCore
import Testing

@testable import Store

/// A deck, and the server's cards, have at most `DeckParser.typesPerDeck` (64) types (every
/// input from outside has a stated limit). At the limit everything loads; one past it,
/// the card of the new type is a problem of its line (or a refused card of the pull), and the
/// rest loads.
struct TypeLimitTests {
  private static func card(_ i: Int, type: Int) -> String {
    #"{"id":"c\#(i)","type":"t\#(type)","body":"card \#(i)"}"#
  }

  @Test(arguments: [64, 65])
  func aDeckOfManyTypes(types: Int) throws {
    let home = try TestHome()
    let lines = (0..<types).map { Self.card($0, type: $0) } + [Self.card(999, type: 0)]
    let deck = try home.deck("many.jsonl", lines)
    let report = try home.index.sync(decks: [deck])
    let catalog = try home.index.catalog()
    #expect(catalog.count == 64)
    #expect(catalog.reduce(0) { $0 + $1.cards } == 65)
    if types == 65 {
      #expect(report.problems.map(\.line) == [65])
      #expect(report.problems.first?.message == "a type too many: a deck has at most 64 types")
    } else {
      #expect(report.problems.isEmpty)
    }
  }

  @Test(arguments: [64, 65])
  func aHeaderOfManyTypes(types: Int) throws {
    let named = (0..<types).map { #""t\#($0)":{"label":"T\#($0)"}"# }.joined(separator: ",")
    let home = try TestHome()
    let deck = try home.deck(
      "header.jsonl", [#"{"deck":"h","types":{"# + named + "}}", Self.card(1, type: 1)])
    let report = try home.index.sync(decks: [deck])
    #expect(report.problems.map(\.line) == (types > 64 ? [1] : []))
    // Declared types are listed even without cards; a refused header declares none.
    let catalog = try home.index.catalog()
    #expect(catalog.count == (types > 64 ? 1 : 64))
    #expect(catalog.reduce(0) { $0 + $1.cards } == 1)
  }

  @Test(arguments: [64, 65])
  func aPullOfManyTypes(types: Int) throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: "http://127.0.0.1:8080")
    session.cacheKeys["hot"] = "k1"
    let cards = (0..<types).map { Wire.Card(id: "n\($0)", type: "t\($0)", body: "b") }
    let pull = Wire.Pull(
      cacheKey: "k1", full: true,
      types: (0..<types).map { Wire.CardType(name: "t\($0)", label: "T\($0)") }, cards: cards)
    let applied = try store.apply(pull, session: session, at: 1)
    #expect(applied.cards == 64)
    #expect(applied.refused.count == types - 64)
    #expect(try home.index.catalog().count == 64)
  }
}
