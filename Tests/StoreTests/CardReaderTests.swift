import FeedCore
import Store
import Testing

@Suite struct CardReaderTests {
  @Test func readsEveryIndexedCardByOrdinalWithAllItsFieldsAndNothingPastTheEnd() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "d.jsonl",
      [
        #"{"id":"a1","type":"a","title":"Ünïcode ✨","body":"one\ntwo","source":"s","url":"u","reveal":"r"}"#,
        #"{"id":"a2","type":"a","body":"plain"}"#, #"{"id":"b1","type":"b","body":"日本語"}"#,
      ])
    _ = try home.index.sync(decks: [deck])
    let reader = home.index.reader()
    let own = try CardReader(path: home.database.path)
    var ids: [String] = []
    for type in try home.index.catalog() {
      for ordinal in 0..<type.cards {
        let card = try #require(try reader.card(type: type.type.name, ordinal: ordinal))
        #expect(card == (try home.index.card(id: card.id)), "the same card by id")
        #expect(card == (try own.card(type: type.type.name, ordinal: ordinal)), "and alone")
        ids.append(card.id)
      }
      #expect(try reader.card(type: type.type.name, ordinal: type.cards) == nil)
    }
    #expect(ids.sorted() == ["a1", "a2", "b1"])
    #expect(try reader.card(type: "a", ordinal: 0)?.reveal == "r")
  }

  @Test func aMissingDatabaseIsAnError() {
    #expect(throws: CardReaderError.self) {
      try CardReader(path: "/nonexistent/folder/state.sqlite")
    }
  }
}
