import CardPreparation
import CardText
import FeedCore
import Synchronization
import TestFixtures
import Testing

@testable import FeedPipeline

/// The feed following live sources: each rule of the issue, on the real `Feed` with
/// its preparations on the cooperative pool. No sleeps: every wait is on the feed's own
/// answers (`next()`, `onReady`) or a gated fetch, within a deadline.
@Suite(.timeLimit(.minutes(1))) struct LiveFeedTests {
  private let area = TextArea(width: 40, height: 10)

  private func feed(
    _ source: some CardSource, catalog: [TypeCount], lookahead: Int = 3,
    enabled: Set<String>? = nil, onReady: @escaping @Sendable () -> Void = {}
  ) -> Feed {
    Feed(
      source: source, catalog: catalog, enabled: enabled ?? Set(catalog.map(\.type.name)),
      lookahead: lookahead, seed: 7, area: area, onReady: onReady)
  }

  private func card(_ id: String, _ type: String = "news", _ body: String? = nil) -> Card {
    Card(id: id, type: type, body: body ?? "Body of \(id).")
  }

  private func next(_ feed: Feed) async throws -> FeedItem {
    try await within("a card from feed.next()") { await feed.next() }
  }

  private func nextID(_ feed: Feed) async throws -> String? {
    if case .card(let prepared) = try await next(feed) { return prepared.card.id }
    return nil
  }

  /// The base cards of an `InstantSource` or `GatedSource` ("a-3"), by id.
  private static let baseKey: @Sendable (String) -> CardKey? = { id in
    let parts = id.split(separator: "-")
    guard parts.count == 2, let ordinal = Int(parts[1]) else { return nil }
    return CardKey(type: String(parts[0]), ordinal: ordinal)
  }

  @Test func anEmptyFeedWaitsForItsLiveSourceAndDealsCardsAsTheyArrive() async throws {
    let feed = feed(InstantSource(counts: [:]), catalog: [])
    let source = ContinuationSource()
    feed.follow(source, name: "stdin")
    feed.start()
    #expect(feed.takeNext() == .loading, "the placeholder, not 'unavailable', while it is open")
    source.yield(.added([card("x")]))
    #expect(try await nextID(feed) == "x")
    source.finish()
    feed.stop()
  }

  @Test func aFeedWhoseOnlySourceEndsEmptyIsUnavailableAndSaysSoOnce() async throws {
    let feed = feed(InstantSource(counts: [:]), catalog: [])
    feed.follow(StaticSource(cards: []), name: "stdin")
    feed.start()
    guard case .unavailable = try await next(feed) else {
      Issue.record("an empty feed whose source ended must be unavailable")
      return
    }
    #expect(feed.takeNews().messages == ["stdin: all 0 cards read"])
    #expect(feed.takeNews().messages.isEmpty)
  }

  @Test func aRemovedCardLeavesBothQueuesItsPreparationIsCancelledAndItNeverShows()
    async throws
  {
    let source = GatedSource(counts: ["a": 3])
    let feed = feed(source, catalog: [TypeCount(type: CardType(name: "a"), cards: 3)])
    feed.start()
    let gates = try await within("3 fetches") { await source.requests.take(3) }
    let removed = gates[1]
    feed.apply(
      LiveCollection.Change(removed: [fakeCard("a", removed.ordinal)]), base: Self.baseKey)
    #expect(removed.wasCancelled)
    #expect(feed.takeNews().removed == ["a-\(removed.ordinal)"])
    for gate in gates { gate.succeed() }
    // The other two cards, round after round; the removed one never.
    let more = Task {
      for await gate in source.requests { gate.succeed() }
    }
    var shown: [String] = []
    for _ in 0..<12 { shown.append(try await nextID(feed) ?? "none") }
    more.cancel()
    feed.stop()
    #expect(!shown.contains("a-\(removed.ordinal)"))
    #expect(Set(shown).count == 2, "\(shown)")
    #expect(feed.statuses.first?.cards == 2)
    #expect(feed.lookUp("a-\(removed.ordinal)") == .removed)
  }

  @Test func removingACardAlreadyShownDoesNotSkipTheNext() async throws {
    let feed = feed(InstantSource(counts: [:]), catalog: [], lookahead: 1)
    let source = ContinuationSource()
    feed.follow(source, name: "live")
    source.yield(.initial([card("x"), card("y"), card("z")]))
    feed.start()
    let first = try #require(try await nextID(feed))
    source.yield(.removed([first]))
    let rest = [try await nextID(feed), try await nextID(feed)].compactMap { $0 }
    #expect(Set(rest) == Set(["x", "y", "z"]).subtracting([first]), "\(first) then \(rest)")
    source.finish()
    feed.stop()
  }

  @Test func anUpdatedCardWaitingInTheQueueIsLaidOutAgainFromItsNewData() async throws {
    let ready = ReadySignal()
    let feed = feed(
      InstantSource(counts: [:]), catalog: [], lookahead: 1, onReady: ready.callback)
    feed.apply(LiveCollection.Change(added: [card("x", "news", "old words")]))
    feed.start()
    // Ready once its preparation reports.
    _ = try await within("x ready") { await ready.stream.take(1) }
    feed.apply(LiveCollection.Change(updated: [card("x", "news", "new words")]))
    guard case .card(let shown) = try await next(feed) else {
      Issue.record("no card")
      return
    }
    #expect(shown.card.body == "new words")
    #expect(shown.layout.lines.contains { $0.contains("new words") })
    #expect(feed.takeNews().updated.values.map(\.body) == ["new words"])
    feed.stop()
  }

  @Test func aNewTypeJoinsTheCatalogWithItsLabelAndOffWhenTheSettingsSaySo() async throws {
    let feed = feed(
      InstantSource(counts: ["a": 2]), catalog: [TypeCount(type: CardType(name: "a"), cards: 2)])
    feed.setEnabled(["a"])
    feed.apply(
      LiveCollection.Change(added: [card("n1", "news")]),
      types: [CardType(name: "news", label: "News")])
    let news = try #require(feed.statuses.first { $0.type.name == "news" })
    #expect(news.type.label == "News")
    #expect(news.cards == 1)
    #expect(news.enabled)
    // A type the settings turned off stays off when a source brings a card of it.
    let off = self.feed(InstantSource(counts: ["a": 2]), catalog: [
      TypeCount(type: CardType(name: "a"), cards: 2),
      TypeCount(type: CardType(name: "b"), cards: 0),
    ], enabled: ["a"])
    off.apply(LiveCollection.Change(added: [card("b1", "b")]))
    #expect(off.statuses.first { $0.type.name == "b" }?.enabled == false)
  }

  @Test func aReplacementThrowsTheQueueAwayAndOnlyItsCardsComeUp() async throws {
    let ready = ReadySignal()
    let feed = feed(
      InstantSource(counts: [:]), catalog: [], lookahead: 2, onReady: ready.callback)
    let source = ContinuationSource()
    feed.follow(source, name: "live")
    source.yield(.initial([card("x"), card("y")]))
    feed.start()
    _ = try await nextID(feed)
    source.yield(.replaced([card("z"), card("w")]))
    // The news says so once the change applied (each change wakes the app); from then on
    // only z and w show.
    try await within("the replacement") {
      var iterator = ready.stream.makeAsyncIterator()
      while !feed.takeNews().replaced { _ = await iterator.next() }
    }
    var shown: [String] = []
    for _ in 0..<6 { shown.append(try await nextID(feed) ?? "none") }
    #expect(Set(shown) == ["z", "w"], "\(shown)")
    source.finish()
    feed.stop()
  }

  @Test func aCardALiveSourceChangesIsFetchedFromItsNewDataNotTheSource() async throws {
    let source = CountingSource(counts: ["a": 1])
    let feed = feed(
      source, catalog: [TypeCount(type: CardType(name: "a"), cards: 1)], lookahead: 1)
    feed.apply(
      LiveCollection.Change(updated: [Card(id: "a-0", type: "a", body: "edited")]),
      base: Self.baseKey)
    feed.start()
    guard case .card(let shown) = try await next(feed) else {
      Issue.record("no card")
      return
    }
    #expect(shown.card.body == "edited")
    #expect(source.fetched.isEmpty)
    #expect(feed.lookUp("a-0") == .live(Card(id: "a-0", type: "a", body: "edited")))
    #expect(feed.lookUp("nobody") == .unknown)
    feed.stop()
  }

  /// Each change past the live maps' room makes more outside the feed's lock and swaps the
  /// grown maps in (`makeRoom`): nothing a change before it applied is lost, a removal stays
  /// one, and a change of many cards applied a few per hold of the lock keeps every card.
  @Test func changesThatOutgrowTheLiveMapsKeepEveryCard() async throws {
    let feed = feed(InstantSource(counts: [:]), catalog: [])
    feed.start()
    var ids: [String] = []
    for (first, count) in [(0, 3), (3, 40), (43, 1_000), (1_043, 2_500)] {
      let cards = (first..<first + count).map { card("n\($0)", $0 % 2 == 0 ? "even" : "odd") }
      feed.apply(LiveCollection.Change(added: cards))
      ids += cards.map(\.id)
      if first == 3 { feed.apply(LiveCollection.Change(removed: [card("n1", "odd")])) }
    }
    #expect(feed.lookUp("n1") == .unknown, "removed, and not one of the source's cards")
    let kept = ids.filter { $0 != "n1" }
    let missing = kept.filter { id in
      guard case .live(let card) = feed.lookUp(id) else { return true }
      return card.id != id
    }
    #expect(missing.count == 0, "cards lost, the first: \(missing.prefix(3))")
    #expect(Set(feed.statuses.map(\.type.name)) == ["even", "odd"])
    #expect(feed.statuses.map(\.cards).reduce(0, +) == kept.count)
    feed.stop()
  }

  /// A pull numbers its new cards after the source's (index ordinal 20 here): they are live
  /// cards of the feed, never taken for the source's card of that ordinal; their scores reach
  /// them by id, and a body sent later is fetched when they are prepared.
  @Test func aCardTheSourceNumberedAfterLaunchIsALiveCardScoredAndFetchedByID() async throws {
    let source = CountingSource(counts: ["a": 20])
    let bodies = Mutex<[String]>([])
    let feed = Feed(
      // Off at first, so that nothing is dealt before the score arrives.
      source: source, catalog: [TypeCount(type: CardType(name: "a"), cards: 20)],
      enabled: [], lookahead: 1, seed: 7, area: area,
      fetchBody: { id in
        bodies.withLock { $0.append(id) }
        return "Fetched body of \(id)."
      })
    feed.apply(
      LiveCollection.Change(added: [Card(id: "p1", type: "a", body: "")]),
      base: { $0 == "p1" ? CardKey(type: "a", ordinal: 20) : nil })
    #expect(feed.statuses.first?.cards == 21, "a new card, not a change of the source's")
    // The best score puts p1 first, whatever the seed.
    feed.updateScores([
      PoolScore(
        type: "a", ordinal: 20, score: ScoredPool.Score(value: 1e9, timestamp: 1), id: "p1")
    ])
    feed.setEnabled(["a"])
    feed.start()
    guard case .card(let shown) = try await next(feed) else {
      Issue.record("no card")
      return
    }
    #expect(shown.card.id == "p1")
    #expect(shown.card.body == "Fetched body of p1.")
    #expect(bodies.withLock { $0 } == ["p1"])
    feed.stop()
  }

  @Test func aFailingSourceIsReportedOnceAndTheFeedGoesOn() async throws {
    struct Broken: Error, CustomStringConvertible { var description: String { "broken pipe" } }
    let feed = feed(
      InstantSource(counts: ["a": 2]), catalog: [TypeCount(type: CardType(name: "a"), cards: 2)])
    let source = ContinuationSource()
    let task = feed.follow(source, name: "news feed")
    source.yield(.added([card("n")]))
    source.fail(Broken())
    await task.value
    #expect(feed.takeNews().messages == ["news feed failed: broken pipe; 1 card kept"])
    feed.start()
    var shown: Set<String> = []
    for _ in 0..<9 { shown.insert(try await nextID(feed) ?? "none") }
    #expect(shown == ["a-0", "a-1", "n"])
    feed.stop()
  }
}
