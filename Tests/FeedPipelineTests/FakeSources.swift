import FeedCore
import FeedPipeline
import Synchronization

struct FetchFailed: Error {}

func fakeCard(_ type: String, _ ordinal: Int) -> Card {
  Card(id: "\(type)-\(ordinal)", type: type, title: "\(type) \(ordinal)", body: "Body of \(type) card \(ordinal).")
}

/// A source that answers at once; `failing` decides which cards throw.
struct InstantSource: CardSource {
  var counts: [String: Int]
  var failing: @Sendable (String, Int) -> Bool = { _, _ in false }

  func catalog() async throws -> [TypeCount] {
    counts.keys.sorted().map { TypeCount(type: CardType(name: $0), cards: counts[$0]!) }
  }

  func fetch(type: String, ordinal: Int) async throws -> Card {
    if failing(type, ordinal) { throw FetchFailed() }
    return fakeCard(type, ordinal)
  }
}

/// One fetch held open until the test answers it.
final class Gate: Sendable {
  private struct State {
    var result: Result<Card, any Error>?
    var waiter: CheckedContinuation<Card, any Error>?
    var cancelled = false
  }
  let type: String
  let ordinal: Int
  private let state = Mutex(State())

  init(type: String, ordinal: Int) {
    self.type = type
    self.ordinal = ordinal
  }

  var wasCancelled: Bool { state.withLock { $0.cancelled } }

  func wait() async throws -> Card {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { c in
        let ready: Result<Card, any Error>? = state.withLock { s in
          if s.result == nil { s.waiter = c }
          return s.result
        }
        if let ready { c.resume(with: ready) }
      }
    } onCancel: {
      answer(.failure(CancellationError()), cancelled: true)
    }
  }

  func succeed() { answer(.success(fakeCard(type, ordinal))) }
  func fail() { answer(.failure(FetchFailed())) }

  private func answer(_ result: Result<Card, any Error>, cancelled: Bool = false) {
    let waiter: CheckedContinuation<Card, any Error>? = state.withLock { s in
      guard s.result == nil else { return nil }
      s.result = result
      s.cancelled = cancelled
      defer { s.waiter = nil }
      return s.waiter
    }
    waiter?.resume(with: result)
  }
}

/// A slow source: every fetch waits until the test opens its gate. Fetches arrive on
/// `requests` in the order they start.
final class GatedSource: CardSource {
  let counts: [String: Int]
  let requests: AsyncStream<Gate>
  private let continuation: AsyncStream<Gate>.Continuation

  init(counts: [String: Int]) {
    self.counts = counts
    (requests, continuation) = AsyncStream.makeStream()
  }

  func catalog() async throws -> [TypeCount] {
    counts.keys.sorted().map { TypeCount(type: CardType(name: $0), cards: counts[$0]!) }
  }

  func fetch(type: String, ordinal: Int) async throws -> Card {
    let gate = Gate(type: type, ordinal: ordinal)
    continuation.yield(gate)
    return try await gate.wait()
  }
}

/// Counts `onReady` calls and lets a test await them.
final class ReadySignal: Sendable {
  let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  init() { (stream, continuation) = AsyncStream.makeStream() }
  var callback: @Sendable () -> Void { { [continuation] in continuation.yield() } }
}

extension AsyncStream {
  /// The next `n` elements.
  func take(_ n: Int) async -> [Element] {
    var out: [Element] = []
    var iterator = makeAsyncIterator()
    while out.count < n, let e = await iterator.next() { out.append(e) }
    return out
  }
}
