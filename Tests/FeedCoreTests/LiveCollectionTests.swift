import FeedCore
import Testing

/// A live source's cards kept from its updates: what each update adds, changes and
/// removes, by id, with a replacement told apart.
struct LiveCollectionTests {
  private func card(_ id: String, _ type: String = "news", body: String = "b") -> Card {
    Card(id: id, type: type, body: body)
  }

  @Test func theFirstCardsAreAddedAndALaterInitialReplacesThem() {
    var cards = LiveCollection()
    let first = cards.apply(.initial([card("a"), card("b")]))
    #expect(first == LiveCollection.Change(added: [card("a"), card("b")]))
    // A source that starts again (a reconnect) sends its cards again: a replacement.
    let again = cards.apply(.initial([card("b", body: "new"), card("c")]))
    #expect(again.replaced)
    #expect(again.removed == [card("a")])
    #expect(again.updated == [card("b", body: "new")])
    #expect(again.added == [card("c")])
    #expect(cards.cards == ["b": card("b", body: "new"), "c": card("c")])
  }

  @Test func addUpdateAndRemoveByID() {
    var cards = LiveCollection()
    cards.apply(.initial([card("a")]))
    #expect(cards.apply(.added([card("b")])).added == [card("b")])
    #expect(cards.apply(.added([card("a", body: "2")])).updated == [card("a", body: "2")],
      "an id given again is a change")
    #expect(cards.apply(.updated([card("z")])).added == [card("z")], "an unknown id is added")
    #expect(cards.apply(.updated([card("b")])).isEmpty, "the same card again changes nothing")
    #expect(cards.apply(.removed(["a", "missing"])).removed == [card("a", body: "2")])
    #expect(cards.apply(.removed(["a"])).isEmpty, "removing twice removes once")
    #expect(Set(cards.cards.keys) == ["b", "z"])
  }

  @Test func aCardThatChangesTypeLeavesItsOldTypeAndJoinsTheNew() {
    var cards = LiveCollection()
    cards.apply(.initial([card("a", "news")]))
    let change = cards.apply(.updated([card("a", "tips")]))
    #expect(change.removed == [card("a", "news")])
    #expect(change.added == [card("a", "tips")])
    #expect(change.updated.isEmpty)
  }

  @Test func withinOneUpdateTheLastCopyOfAnIDWins() {
    var cards = LiveCollection()
    let change = cards.apply(.added([card("a", body: "1"), card("b"), card("a", body: "2")]))
    #expect(change.added == [card("b"), card("a", body: "2")])
    #expect(cards.count == 2)
    let replaced = cards.apply(.replaced([card("c"), card("c", body: "x")]))
    #expect(replaced.added == [card("c", body: "x")])
    #expect(replaced.removed.map(\.id) == ["a", "b"])
  }

  /// However long a stream runs, the collection holds the source's current cards only.
  @Test func aLongStreamKeepsOnlyTheCurrentCards() {
    var cards = LiveCollection()
    for n in 0..<20_000 {
      cards.apply(.added([card("c\(n)")]))
      if n >= 10 { cards.apply(.removed(["c\(n - 10)"])) }
    }
    #expect(cards.count == 10)
  }
}
