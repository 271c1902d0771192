import FeedCore
import Store
import TestFixtures
import Testing

/// `StateStore.readingStats` counts what the history holds: swipes by local day, reactions by
/// type (undone swipes not), cards shown this round against the deck.
@Suite struct ReadingStatsStoreTests {
  private let day = 86_400.0

  @Test func theStatsCountTheHistory() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "d.jsonl", (0..<5).map { cardLine("f\($0)") } + (0..<3).map { cardLine("w\($0)", type: "word") })
    _ = try home.index.sync(decks: [deck])
    let today = 20_000.0 * day
    // Shown at 23:00 UTC: the next day where the clock is two hours ahead.
    let cards: [(String, String, Double, SwipeDirection?)] = [
      ("f0", "fact", today - day + 23 * 3600, .up), ("f1", "fact", today + 60, .right),
      ("f2", "fact", today + 120, .left), ("w0", "word", today + 180, .up),
      ("w1", "word", today + 240, .right), ("f3", "fact", today + 300, nil),
    ]
    try home.state.append(
      cards.map { ShownRecord(cardID: $0.0, type: $0.1, title: nil, shownAt: $0.2) })
    for (index, card) in cards.enumerated() {
      guard let direction = card.3 else { continue }
      let swipe = Tombstone(historyIndex: index, cardID: card.0, type: card.1, direction: direction)
      try home.state.apply(StateChange(effects: [.entomb(swipe)], time: card.2))
    }
    // The last swipe is undone: it counts as shown, not swiped.
    let undone = Tombstone(historyIndex: 4, cardID: "w1", type: "word", direction: .right)
    try home.state.apply(StateChange(effects: [.restore(undone)], time: today + 400))

    let utc = try home.state.readingStats(now: today + 3600, utcOffset: 0)
    #expect(utc.days.suffix(2).map(\.swipes) == [1, 3])
    #expect(utc.streak == 2)
    let fact = try #require(utc.types.first { $0.type == "fact" })
    #expect([fact.ctfo, fact.tfu, fact.tifb, fact.unswiped] == [1, 1, 1, 1])
    #expect(fact.cards == 5)
    let word = try #require(utc.types.first { $0.type == "word" })
    #expect([word.ctfo, word.tfu, word.tifb, word.unswiped] == [1, 0, 0, 1])
    #expect(utc.types.first?.type == "word", "100% liked before 67%")

    let ahead = try home.state.readingStats(now: today + 3600, utcOffset: 2 * 3600)
    #expect(ahead.days.suffix(2).map(\.swipes) == [0, 4], "23:00 UTC is tomorrow at UTC+2")
    #expect(ahead.streak == 1)
  }

  @Test func theRoundCountsTheCardsShownOfTheDeck() throws {
    let home = try TestHome()
    let deck = try home.deck("d.jsonl", (0..<4).map { cardLine("f\($0)") })
    _ = try home.index.sync(decks: [deck])
    let reader = try home.index.reader()
    let cards = try (0..<2).map { try #require(try reader.card(type: "fact", ordinal: $0)) }
    _ = try home.state.appendShown(cards, time: 10)
    let stats = try home.state.readingStats(now: 20, utcOffset: 0)
    #expect(stats.types.map { [$0.seenThisRound, $0.cards] } == [[2, 4]])
  }

  @Test func aNewHomeHasNothing() throws {
    let home = try TestHome()
    let stats = try home.state.readingStats(now: 1_000_000, utcOffset: 0)
    #expect(stats.shown == 0 && stats.swipes == 0 && stats.streak == 0)
    #expect(stats.days.count == 14 && stats.days.allSatisfy { $0.swipes == 0 })
  }
}
