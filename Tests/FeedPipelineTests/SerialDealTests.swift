import CardPreparation
import CardText
import FeedCore
import TestFixtures
import Testing

@testable import FeedPipeline

@Suite(.timeLimit(.minutes(1))) struct SerialDealTests {
  private let area = TextArea(width: 30, height: 8)

  private func serial(
    _ source: InstantSource, count: Int, enabled: Set<String>? = nil, lookahead: Int = 5,
    seed: UInt64
  ) async throws -> [PreparedCard] {
    let catalog = try await source.catalog()
    return try SerialDeal.cards(
      count, catalog: catalog, enabled: enabled ?? Set(catalog.map(\.type.name)),
      lookahead: lookahead, seed: seed, area: area
    ) { type, ordinal in
      if source.failing(type, ordinal) { throw FetchFailed() }
      return fakeCard(type, ordinal)
    }
  }

  @Test(arguments: [(UInt64(1), 5), (2, 1), (3, 8), (77, 3)])
  func dealsWhatAFeedInDealOrderHandsOut(seed: UInt64, lookahead: Int) async throws {
    // Pools that run out and start over (c has 4 cards) and one type left off.
    let source = InstantSource(counts: ["a": 40, "b": 25, "c": 4, "d": 9])
    let enabled: Set = ["a", "b", "c"]
    let catalog = try await source.catalog()
    let feed = Feed(
      source: source, catalog: catalog, enabled: enabled, lookahead: lookahead, seed: seed,
      area: area, inDealOrder: true)
    feed.start()
    let fromFeed = try await within("120 cards from a Feed") {
      var cards: [PreparedCard] = []
      for _ in 0..<120 {
        guard case .card(let card) = await feed.next() else { break }
        cards.append(card)
      }
      return cards
    }
    feed.stop()
    let dealt = try await serial(
      source, count: 120, enabled: enabled, lookahead: lookahead, seed: seed)
    #expect(dealt == fromFeed)
    #expect(Set(dealt.map(\.card.type)) == enabled)
    // Agreeing is not enough (both paths share one engine): each type's rounds deal each of its
    // cards once (feed-logic.md, "Card Selection"), checked on their own.
    for (type, size) in [("a", 40), ("b", 25), ("c", 4)] {
      let ids = dealt.map(\.card.id).filter { $0.hasPrefix(type + "-") }
      for start in stride(from: 0, to: ids.count - size + 1, by: size) {
        #expect(Set(ids[start..<start + size]).count == size, "\(type): round at \(start)")
      }
    }
  }

  @Test func cardsAreSanitisedAndLaidOutForTheArea() async throws {
    let cards = try await serial(InstantSource(counts: ["a": 3]), count: 3, seed: 4)
    #expect(cards.count == 3)
    for card in cards {
      #expect(
        card.layout
          == CardLayout.layout(title: card.card.title, body: card.card.body, width: 30, height: 8))
    }
  }

  @Test func aFailedCardIsSkippedAndItsSlotGoesToTheSameType() async throws {
    let source = InstantSource(counts: ["a": 10, "b": 10]) { type, ordinal in
      type == "a" && ordinal % 2 == 0
    }
    let cards = try await serial(source, count: 10, seed: 6)
    let a = cards.filter { $0.card.type == "a" }.map(\.card.id)
    #expect(a.count == 5, "the rounds still alternate")
    #expect(Set(a) == Set([1, 3, 5, 7, 9].map { "a-\($0)" }))
  }

  @Test func whenNothingCanBePreparedItThrowsInsteadOfWaiting() async throws {
    let source = InstantSource(counts: ["a": 3]) { _, _ in true }
    await #expect(throws: FeedUnavailable.self) { try await serial(source, count: 1, seed: 1) }
    await #expect(throws: FeedUnavailable.self) {
      try await serial(InstantSource(counts: ["a": 3]), count: 1, enabled: [], seed: 1)
    }
    #expect(try await serial(InstantSource(counts: ["a": 3]), count: 0, seed: 1).isEmpty)
  }
}
