/// A source whose cards change while the app runs (async-card-stack.md, "Data Sources"): its
/// updates are an `AsyncSequence` of `CardUpdate`s, from its first cards on. The sequence ends
/// when the source does (a pipe's end, which is not an error) and throws when it fails; either
/// way the other sources go on. Four kinds are ready, as the spec lists them: `StaticSource`
/// (an array), `SequenceSource` (any `AsyncSequence`), `StreamSource` (an `AsyncStream`) and
/// `ContinuationSource` (driven by hand).
///
///     let source = ContinuationSource()
///     source.yield(.initial(cards))
///     for try await update in source.updates() { collection.apply(update) }
public protocol LiveSource: Sendable {
  associatedtype Updates: AsyncSequence & Sendable where Updates.Element == CardUpdate
  /// The updates, for one consumer.
  func updates() -> Updates
}

/// A fixed array of cards: one `initial` update, then the end.
public struct StaticSource: LiveSource {
  public let cards: [Card]

  public init(cards: [Card]) { self.cards = cards }

  public func updates() -> AsyncStream<CardUpdate> {
    let cards = cards
    return AsyncStream { continuation in
      continuation.yield(.initial(cards))
      continuation.finish()
    }
  }
}

/// Any `AsyncSequence` of updates, consumed as it is (its errors end the source).
public struct SequenceSource<Base: AsyncSequence & Sendable>: LiveSource
where Base.Element == CardUpdate {
  public let base: Base

  public init(_ base: Base) { self.base = base }

  public func updates() -> Base { base }
}

/// An `AsyncStream` of updates made elsewhere (async-card-stack.md, "Custom Stream"). Like the
/// stream, it has one consumer.
public struct StreamSource: LiveSource {
  public let stream: AsyncStream<CardUpdate>

  public init(stream: AsyncStream<CardUpdate>) { self.stream = stream }

  public func updates() -> AsyncStream<CardUpdate> { stream }
}

/// A source driven by hand: `yield` sends an update, `finish` ends the source, `fail` ends it
/// with an error. Updates sent before the consumer starts wait for it, in order.
public final class ContinuationSource: LiveSource {
  private let stream: AsyncThrowingStream<CardUpdate, any Error>
  private let continuation: AsyncThrowingStream<CardUpdate, any Error>.Continuation

  public init() {
    (stream, continuation) = AsyncThrowingStream.makeStream(of: CardUpdate.self)
  }

  public func yield(_ update: CardUpdate) { continuation.yield(update) }

  public func finish() { continuation.finish() }

  public func fail(_ error: any Error) { continuation.finish(throwing: error) }

  public func updates() -> AsyncThrowingStream<CardUpdate, any Error> { stream }
}
