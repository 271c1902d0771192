import CardPreparation
import CardText
import FeedCore
import Synchronization
import TestFixtures
import Testing

@testable import FeedPipeline

private let area = TextArea(width: 40, height: 10)

private func makeFeed(
  _ source: some CardSource, enabled: Set<String>? = nil, lookahead: Int = 5, seed: UInt64 = 1,
  inDealOrder: Bool = false, onReady: @escaping @Sendable () -> Void = {},
  layout: @escaping @Sendable (Card, TextArea) -> PreparedCard = {
    Preparation.laidOut($0, for: $1)
  }
) async throws -> Feed {
  let catalog = try await source.catalog()
  return Feed(
    source: source, catalog: catalog, enabled: enabled ?? Set(catalog.map(\.type.name)),
    lookahead: lookahead, seed: seed, area: area, inDealOrder: inDealOrder, onReady: onReady,
    layout: layout)
}

extension FeedItem {
  fileprivate var card: Card? { if case .card(let c) = self { c.card } else { nil } }
}

/// The next card from `feed`, failing the test after the deadline instead of hanging.
private func next(_ feed: Feed) async throws -> FeedItem {
  try await within("a card from feed.next()") { await feed.next() }
}

/// The next `n` requests of a gated source, failing the test after the deadline.
private func requests(_ n: Int, of source: GatedSource) async throws -> [Gate] {
  try await within("\(n) fetches") { await source.requests.take(n) }
}

@Suite(.timeLimit(.minutes(1))) struct FeedTests {
  /// Found by LeakSanitizer (`make sanitize`): each fetch that `stop()` cancelled was counted
  /// as failed and replaced by a new one, which nothing cancelled and waited forever.
  @Test func aStoppedFeedStartsNoMoreFetches() async throws {
    let source = GatedSource(counts: ["a": 20])
    let feed = try await makeFeed(source, lookahead: 2)
    feed.start()
    let gates = try await requests(2, of: source)
    feed.stop()
    #expect(gates.allSatisfy { $0.wasCancelled })
    do {
      let late = try await within("a fetch after stop()", limit: .milliseconds(300)) {
        await source.requests.take(1)
      }
      Issue.record("\(late.count) fetch started after stop()")
    } catch is DeadlinePassed {}
  }

  @Test func preparationsRunConcurrently() async throws {
    let source = GatedSource(counts: ["a": 20])
    let feed = try await makeFeed(source, lookahead: 5)
    feed.start()
    let gates = try await requests(5, of: source)
    #expect(gates.count == 5, "five fetches in flight before any finished")
    for gate in gates { gate.succeed() }
    feed.stop()
  }

  @Test func aCardIsReadyAsSoonAsItsPreparationEndsWhateverItsPlace() async throws {
    let source = GatedSource(counts: ["a": 20])
    let ready = ReadySignal()
    let feed = try await makeFeed(source, lookahead: 3, onReady: ready.callback)
    feed.start()
    let gates = try await requests(3, of: source)
    #expect(feed.takeNext() == .loading)
    gates[2].succeed()
    _ = try await within("onReady") { await ready.stream.take(1) }
    #expect(feed.takeNext().card?.id == "a-\(gates[2].ordinal)")
    for gate in gates { gate.succeed() }
    feed.stop()
  }

  @Test func theFirstCardToBeReadyReplacesThePlaceholderWithoutAKey() async throws {
    let source = GatedSource(counts: ["a": 20])
    let feed = try await makeFeed(source, lookahead: 2)
    feed.start()
    let gates = try await requests(2, of: source)
    async let waited = next(feed)
    gates[1].succeed()
    #expect(try await waited.card?.id == "a-\(gates[1].ordinal)")
    gates[0].succeed()
    feed.stop()
  }

  @Test func showingACardStartsThePreparationOfOneMore() async throws {
    let source = GatedSource(counts: ["a": 20])
    let feed = try await makeFeed(source, lookahead: 2)
    feed.start()
    let firstTwo = try await requests(2, of: source)
    try #require(firstTwo.count == 2)
    let (first, second) = (firstTwo[0], firstTwo[1])
    first.succeed()
    _ = try await next(feed)
    let third = try await requests(1, of: source)
    #expect(third.count == 1)
    second.succeed()
    third.first?.succeed()
    feed.stop()
  }

  /// The app takes a card in the frame that answers the key; its replacement's preparation
  /// starts after that frame (`refill()`), not in it.
  @Test func takingAReadyCardStartsNothingUntilTheRefill() async throws {
    let source = GatedSource(counts: ["a": 20])
    let ready = ReadySignal()
    let feed = try await makeFeed(source, lookahead: 2, onReady: ready.callback)
    feed.start()
    let firstTwo = try await requests(2, of: source)
    firstTwo[0].succeed()
    _ = try await within("onReady") { await ready.stream.take(1) }
    let running = { feed.state.withLock { $0.tasks.count } }
    #expect(running() == 1, "the second card's preparation, still gated")
    #expect(feed.takeReady().card?.id == "a-\(firstTwo[0].ordinal)")
    #expect(running() == 1, "taking the card started no preparation")
    feed.refill()
    #expect(running() == 2, "the refill started its replacement's")
    let third = try await requests(1, of: source)
    #expect(third.count == 1)
    feed.refill()
    #expect(running() == 2, "a refill is done once")
    firstTwo[1].succeed()
    third.first?.succeed()
    feed.stop()
  }

  /// A runner that never refills (a test harness that draws no frame) is one refill behind,
  /// never starved: each take starts the refill an earlier take left.
  @Test func takesWithoutRefillsStillDealEveryCard() async throws {
    let ready = ReadySignal()
    let feed = try await makeFeed(
      InstantSource(counts: ["a": 30]), lookahead: 2, onReady: ready.callback)
    feed.start()
    var seen: [String] = []
    while seen.count < 30 {
      if let card = feed.takeReady().card {
        seen.append(card.id)
      } else {
        _ = try await within("a card ready after \(seen.count)") { await ready.stream.take(1) }
      }
    }
    #expect(seen.count == 30)
    #expect(Set(seen).count == 30, "one round of 30 cards, each once")
    feed.stop()
  }

  @Test func failedCardsAreSkippedNeverFetchedAgainAndTheFeedGoesOn() async throws {
    let source = CountingSource(counts: ["a": 30, "b": 30], failing: { _, o in o % 3 == 0 })
    let feed = try await makeFeed(source)
    feed.start()
    // 20 good cards per type. A ready card shows before any dealt after it, so the 35 shown
    // are among the first 40 dealt (lookahead 5): 20 per type, none of them a repeat.
    var seen: [String] = []
    for _ in 0..<35 { seen.append(try #require(try await next(feed).card).id) }
    #expect(seen.allSatisfy { Int($0.split(separator: "-")[1])! % 3 != 0 })
    #expect(Set(seen).count == 35, "no repeats before a type's good cards run out")
    feed.stop()
    let failed = source.fetched.filter { Int($0.split(separator: "-")[1])! % 3 == 0 }
    #expect(!failed.isEmpty)
    #expect(Set(failed).count == failed.count, "a failed fetch is never retried: \(failed)")
  }

  @Test func aTypeWhoseEveryCardFailsIsReportedAndSetAside() async throws {
    let source = InstantSource(counts: ["good": 10, "bad": 10], failing: { t, _ in t == "bad" })
    let feed = try await makeFeed(source)
    feed.start()
    for _ in 0..<30 { #expect(try #require(try await next(feed).card).type == "good") }
    let bad = feed.statuses.first { $0.type.name == "bad" }
    #expect(bad?.failing == true)
    feed.stop()
  }

  @Test func whenNothingCanBePreparedTheCallerIsToldInsteadOfWaiting() async throws {
    let source = InstantSource(counts: ["bad": 4], failing: { _, _ in true })
    let feed = try await makeFeed(source)
    feed.start()
    guard case .unavailable(let message) = try await next(feed) else {
      Issue.record("expected .unavailable")
      return
    }
    #expect(message.contains("No card can be prepared"))
  }

  /// A type whose every card failed (its server down) left the feed "unavailable" until a
  /// restart; once its source is back (a pull succeeds), a new round deals its cards again.
  @Test func aFeedWhoseEveryCardFailedGoesOnWhenItsSourceIsBack() async throws {
    let down = Mutex(true)
    let source = CountingSource(counts: ["server": 3], failing: { _, _ in down.withLock { $0 } })
    let feed = try await makeFeed(source)
    feed.start()
    guard case .unavailable = try await next(feed) else {
      Issue.record("expected .unavailable")
      return
    }
    #expect(feed.hasFailedTypes)
    down.withLock { $0 = false }
    feed.renewFailedTypes()
    var ids: Set<String> = []
    for _ in 0..<3 { ids.insert(try #require(try await next(feed).card).id) }
    #expect(ids == ["server-0", "server-1", "server-2"])
    let fetched = source.fetched
    #expect(Set(fetched.prefix(3)).count == 3, "each card asked once while down: \(fetched)")
    #expect(Set(fetched.dropFirst(3).prefix(3)).count == 3, "then once a round: \(fetched)")
    feed.stop()
  }

  @Test func disablingATypeWhilePreparingCancelsItsPreparations() async throws {
    let source = GatedSource(counts: ["a": 10, "b": 10])
    let feed = try await makeFeed(source, lookahead: 4)
    feed.start()
    let first = try await requests(4, of: source)
    feed.setEnabled(["a"])
    for gate in first where gate.type == "a" { gate.succeed() }
    for gate in first where gate.type == "b" {
      #expect(gate.wasCancelled, "the preparation of a disabled type's card is cancelled")
      gate.succeed()
    }
    let refills = try await requests(first.filter { $0.type == "b" }.count, of: source)
    #expect(refills.allSatisfy { $0.type == "a" })
    for gate in refills { gate.succeed() }
    for _ in 0..<4 { #expect(try await next(feed).card?.type == "a") }
    feed.stop()
  }

  @Test func enablingATypeStartsOverWithBothTypes() async throws {
    let feed = try await makeFeed(InstantSource(counts: ["a": 50, "b": 50]), enabled: ["a"])
    feed.start()
    for _ in 0..<5 { #expect(try await next(feed).card?.type == "a") }
    feed.setEnabled(["a", "b"])
    var types: [String] = []
    for _ in 0..<20 { types.append(try await next(feed).card?.type ?? "none") }
    // 25 slots are dealt in rounds of two; the 20 shown are the first to finish.
    #expect((7...13).contains(types.filter { $0 == "b" }.count), "\(types)")
    feed.stop()
  }

  @Test func resizingLaysReadyCardsOutAgainFromTheFetchedData() async throws {
    let source = CountingSource(counts: ["a": 10])
    let ready = ReadySignal()
    let wide = TextArea(width: 12, height: 30)
    let (relaid, relay) = AsyncStream.makeStream(of: Void.self)
    let feed = try await makeFeed(source, lookahead: 3, onReady: ready.callback) { card, area in
      if area == wide { relay.yield() }
      return Preparation.laidOut(card, for: area)
    }
    feed.start()
    _ = try await within("three cards ready") { await ready.stream.take(3) }
    #expect(source.fetched.count == 3, "one fetch per card of the lookahead")
    feed.resize(to: wide)
    // The three ready cards are laid out again in the background, before anyone takes one.
    _ = try await within("three cards laid out again") { await relaid.take(3) }
    #expect(source.fetched.count == 3, "laid out again from the fetched data, not fetched again")
    guard case .card(let card) = feed.takeNext() else {
      Issue.record("expected a ready card")
      return
    }
    #expect(card.layout.lines.allSatisfy { DisplayWidth.of($0) <= 12 })
    #expect(card.layout.lines.count > 3)
    feed.stop()
  }

  @Test(.timeLimit(.minutes(3))) func everyEnabledTypeGetsAnEqualShare() async throws {
    let counts = ["a": 500, "b": 80, "c": 81, "d": 90, "e": 7, "f": 1000]
    let feed = try await makeFeed(InstantSource(counts: counts), seed: 42)
    feed.start()
    var shown: [String: Int] = [:]
    // Shuffled rounds keep the shares within one card of each other, so 6,000 cards show it as
    // well as a much longer run would, in far less time.
    let types = try await within("6,000 cards", limit: .seconds(120)) {
      var types: [String?] = []
      for _ in 0..<6_000 { types.append(await feed.next().card?.type) }
      return types
    }
    for type in types { shown[type ?? "none", default: 0] += 1 }
    for type in counts.keys { #expect(abs(shown[type]! - 1_000) <= 5, "\(shown)") }
    feed.stop()
  }

  @Test func inDealOrderTheSameSeedPrintsTheSameCardsWhateverTheTiming() async throws {
    // The first card dealt, from a source that answers at once.
    let instant = try await makeFeed(
      InstantSource(counts: ["a": 30, "b": 30]), lookahead: 2, seed: 5, inDealOrder: true)
    instant.start()
    let first = try await next(instant).card?.id
    instant.stop()
    let source = GatedSource(counts: ["a": 30, "b": 30])
    let feed = try await makeFeed(source, lookahead: 2, seed: 5, inDealOrder: true)
    feed.start()
    // The two fetches arrive in any order (each is a task of its own): find the first card's.
    let gates = try await requests(2, of: source)
    let fetched = gates.map { "\($0.type)-\($0.ordinal)" }
    #expect(fetched.contains { $0 == first }, "\(fetched) against \(String(describing: first))")
    let (dealtFirst, dealtSecond) =
      fetched[0] == first ? (gates[0], gates[1]) : (gates[1], gates[0])
    async let waited = next(feed)
    dealtSecond.succeed()
    dealtFirst.succeed()
    #expect(try await waited.card?.id == first)
    feed.stop()

    let ids = { (seed: UInt64) async throws -> [String] in
      let feed = try await makeFeed(
        InstantSource(counts: ["a": 50, "b": 50, "c": 5]), seed: seed, inDealOrder: true)
      feed.start()
      var ids: [String] = []
      for _ in 0..<60 { ids.append(try await next(feed).card?.id ?? "none") }
      feed.stop()
      return ids
    }
    let (one, two) = (try await ids(9), try await ids(9))
    #expect(one == two)
  }
}

extension FeedTests {
  /// A type smaller than the lookahead deals a card again while its first fetch still runs; the
  /// second slot waits for that fetch instead of asking the source again. So a card whose
  /// fetch fails (a body from the server: 500, timeout, reset) was asked for exactly once, is
  /// never shown and never fetched again (feed-logic.md, "Handling Errors": never retry).
  @Test func aCardDealtTwiceIsFetchedOnceAndAFailureIsNeverRetried() async throws {
    let source = GatedSource(counts: ["a": 2])
    let feed = try await makeFeed(source, lookahead: 5)
    feed.start()
    let first = try await requests(2, of: source)
    #expect(Set(first.map(\.ordinal)) == [0, 1], "each card once, though five slots are dealt")
    // Every later fetch is answered, and noted.
    let later = Mutex<[Int]>([])
    let answering = Task {
      for await gate in source.requests {
        later.withLock { $0.append(gate.ordinal) }
        gate.succeed()
      }
    }
    defer { answering.cancel() }
    let failing = first[0].ordinal
    first[0].fail()
    first[1].succeed()
    for _ in 0..<6 {
      let card = try await next(feed).card
      #expect(card?.id == "a-\(first[1].ordinal)")
    }
    #expect(!later.withLock { $0 }.contains(failing), "the failed card was fetched again")
    feed.stop()
  }
}
