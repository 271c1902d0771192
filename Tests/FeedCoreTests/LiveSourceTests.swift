import FeedCore
import Testing

/// The four kinds of live source (async-card-stack.md, "Data Sources"): each gives its
/// updates in order, and ends, or fails, as its producer says. No sleeps: every wait is on the
/// source's own sequence, within the suite's time limit.
@Suite(.timeLimit(.minutes(1)))
struct LiveSourceTests {
  private struct Broken: Error, Equatable {}

  private let a = Card(id: "a", type: "news", body: "A")
  private let b = Card(id: "b", type: "news", body: "B")

  private func all<S: LiveSource>(_ source: S) async throws -> [CardUpdate] {
    var updates: [CardUpdate] = []
    for try await update in source.updates() { updates.append(update) }
    return updates
  }

  @Test func aStaticSourceGivesItsCardsOnceAndEnds() async throws {
    #expect(try await all(StaticSource(cards: [a, b])) == [.initial([a, b])])
  }

  @Test func aSequenceSourceGivesWhatItsSequenceGives() async throws {
    let updates: [CardUpdate] = [.initial([a]), .added([b]), .removed(["a"])]
    let source = SequenceSource(updates.async)
    #expect(try await all(source) == updates)
  }

  @Test func aStreamSourceGivesItsStreamAndEndsWithIt() async throws {
    let (stream, continuation) = AsyncStream.makeStream(of: CardUpdate.self)
    let source = StreamSource(stream: stream)
    continuation.yield(.initial([a]))
    continuation.yield(.updated([b]))
    continuation.finish()
    #expect(try await all(source) == [.initial([a]), .updated([b])])
  }

  @Test func aContinuationSourceGivesWhatIsYieldedInOrderThenItsEnd() async throws {
    let source = ContinuationSource()
    source.yield(.initial([a]))
    let consumer = Task { try await all(source) }
    source.yield(.added([b]))
    source.yield(.replaced([b]))
    source.finish()
    source.yield(.removed(["b"]))  // after the end: never given
    #expect(try await consumer.value == [.initial([a]), .added([b]), .replaced([b])])
  }

  @Test func aFailingSourceThrowsAfterWhatItGave() async throws {
    let source = ContinuationSource()
    source.yield(.initial([a]))
    source.fail(Broken())
    var seen: [CardUpdate] = []
    await #expect(throws: Broken.self) {
      for try await update in source.updates() { seen.append(update) }
    }
    #expect(seen == [.initial([a])])
  }

  /// A source's updates through a collection: the cards it holds at its end.
  @Test func updatesAppliedInOrderLeaveTheSourcesCards() async throws {
    let source = ContinuationSource()
    let consumer = Task {
      var cards = LiveCollection()
      for try await update in source.updates() { cards.apply(update) }
      return cards.cards
    }
    source.yield(.initial([a]))
    source.yield(.added([b]))
    source.yield(.removed(["a"]))
    source.finish()
    #expect(try await consumer.value == ["b": b])
  }
}

extension Array where Element: Sendable {
  /// The array as an `AsyncSequence`, for `SequenceSource`.
  fileprivate var async: AsyncStream<Element> {
    let elements = self
    return AsyncStream { continuation in
      for element in elements { continuation.yield(element) }
      continuation.finish()
    }
  }
}
