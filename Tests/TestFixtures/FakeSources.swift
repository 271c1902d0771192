import FeedCore
import Synchronization

public struct FetchFailed: Error {
  public init() {}
}

public func fakeCard(_ type: String, _ ordinal: Int) -> Card {
  Card(
    id: "\(type)-\(ordinal)", type: type, title: "\(type) \(ordinal)",
    body: "Body of \(type) card \(ordinal).")
}

/// A source that answers at once; `failing` decides which cards throw.
public struct InstantSource: CardSource {
  public var counts: [String: Int]
  public var failing: @Sendable (String, Int) -> Bool

  public init(
    counts: [String: Int], failing: @escaping @Sendable (String, Int) -> Bool = { _, _ in false }
  ) {
    self.counts = counts
    self.failing = failing
  }

  public func catalog() async throws -> [TypeCount] {
    counts.keys.sorted().map { TypeCount(type: CardType(name: $0), cards: counts[$0]!) }
  }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    if failing(type, ordinal) { throw FetchFailed() }
    return fakeCard(type, ordinal)
  }
}

/// An `InstantSource` that records its fetches.
public final class CountingSource: CardSource {
  public let source: InstantSource
  private let log = Mutex<[String]>([])

  public init(
    counts: [String: Int], failing: @escaping @Sendable (String, Int) -> Bool = { _, _ in false }
  ) {
    source = InstantSource(counts: counts, failing: failing)
  }

  /// The ids of the cards fetched, in the order the fetches started.
  public var fetched: [String] { log.withLock { $0 } }

  public func catalog() async throws -> [TypeCount] { try await source.catalog() }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    log.withLock { $0.append(fakeCard(type, ordinal).id) }
    return try await source.fetch(type: type, ordinal: ordinal)
  }
}

/// One fetch held open until the test answers it.
public final class Gate: Sendable {
  private struct State {
    var result: Result<Card, any Error>?
    var waiter: CheckedContinuation<Card, any Error>?
    var cancelled = false
  }
  public let type: String
  public let ordinal: Int
  private let state = Mutex(State())

  public init(type: String, ordinal: Int) {
    self.type = type
    self.ordinal = ordinal
  }

  public var wasCancelled: Bool { state.withLock { $0.cancelled } }

  public func wait() async throws -> Card {
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

  public func succeed() { answer(.success(fakeCard(type, ordinal))) }
  public func fail() { answer(.failure(FetchFailed())) }

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
public final class GatedSource: CardSource {
  public let counts: [String: Int]
  public let requests: AsyncStream<Gate>
  private let continuation: AsyncStream<Gate>.Continuation

  public init(counts: [String: Int]) {
    self.counts = counts
    (requests, continuation) = AsyncStream.makeStream()
  }

  public func catalog() async throws -> [TypeCount] {
    counts.keys.sorted().map { TypeCount(type: CardType(name: $0), cards: counts[$0]!) }
  }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    let gate = Gate(type: type, ordinal: ordinal)
    continuation.yield(gate)
    return try await gate.wait()
  }
}

/// Counts `onReady` calls and lets a test await them.
public final class ReadySignal: Sendable {
  public let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  public init() { (stream, continuation) = AsyncStream.makeStream() }
  public var callback: @Sendable () -> Void { { [continuation] in continuation.yield() } }
}

extension AsyncStream {
  /// The next `n` elements.
  public func take(_ n: Int) async -> [Element] {
    var out: [Element] = []
    var iterator = makeAsyncIterator()
    while out.count < n, let e = await iterator.next() { out.append(e) }
    return out
  }
}

/// A wait that outlived its deadline: the test fails instead of hanging.
public struct DeadlinePassed: Error, CustomStringConvertible {
  public let what: String
  public let limit: Duration

  public init(what: String, limit: Duration) {
    self.what = what
    self.limit = limit
  }

  public var description: String { "no answer within \(limit): \(what)" }
}

/// The result of `operation`, or `DeadlinePassed` once `limit` is over. The operation need not
/// answer cancellation (a continuation nobody resumes): it is cancelled and left behind.
public func within<T: Sendable>(
  _ what: String, limit: Duration = .seconds(20),
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  var work: Task<Void, Never>?
  var timer: Task<Void, Never>?
  let result: Result<T, any Error> = await withCheckedContinuation { continuation in
    let answer = FirstAnswer(continuation)
    work = Task {
      do { answer.give(.success(try await operation())) } catch { answer.give(.failure(error)) }
    }
    timer = Task {
      try? await Task.sleep(for: limit)
      answer.give(.failure(DeadlinePassed(what: what, limit: limit)))
    }
  }
  timer?.cancel()
  work?.cancel()
  return try result.get()
}

/// Resumes a continuation with the first answer given; later ones are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
  private let waiter: Mutex<CheckedContinuation<Result<T, any Error>, Never>?>

  init(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) {
    waiter = Mutex(continuation)
  }

  func give(_ result: Result<T, any Error>) {
    let waiter = self.waiter.withLock { w in
      defer { w = nil }
      return w
    }
    waiter?.resume(returning: result)
  }
}
