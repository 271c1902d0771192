import CardStore
import FeedCore
import Testing

@Suite struct CardReaderTests {
  @Test func readsWhatTheIndexHoldsForEveryOrdinalAndNothingPastTheEnd() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "d.jsonl",
      [
        #"{"id":"a1","type":"a","title":"Ünïcode ✨","body":"one\ntwo","source":"s","url":"u","reveal":"r"}"#,
        #"{"id":"a2","type":"a","body":"plain"}"#, #"{"id":"b1","type":"b","body":"日本語"}"#,
      ])
    _ = try home.index.sync(decks: [deck])
    let reader = try CardReader(path: home.database.path)
    for type in try home.index.catalog() {
      for ordinal in 0..<type.cards {
        let expected = try home.index.card(type: type.type.name, ordinal: ordinal)
        #expect(try reader.card(type: type.type.name, ordinal: ordinal) == expected)
        #expect(expected != nil)
      }
      #expect(try reader.card(type: type.type.name, ordinal: type.cards) == nil)
    }
    #expect(try reader.card(type: "a", ordinal: 0)?.reveal == "r")
  }

  @Test func aMissingDatabaseIsAnError() {
    #expect(throws: CardReaderError.self) {
      try CardReader(path: "/nonexistent/folder/state.sqlite")
    }
  }
}
