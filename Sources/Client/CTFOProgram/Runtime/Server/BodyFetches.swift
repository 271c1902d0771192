import CTFOClient
import CTFOWire
import HTTP
import Synchronization

/// The bodies of the cards a pull sent without them, fetched for the running app on the
/// server link's thread. Each card is asked of the server once at most: a failure is kept, and
/// asking again fails at once (feed-logic.md, "Handling Errors": any error skips the card for
/// good); asks for a card already on its way share its answer. The deadline runs from the
/// moment the request starts, so a card that waits its turn behind one that hangs still gets
/// its whole time.
///
///     let bodies = BodyFetches(thread: link.queue, deadline: .seconds(2)) { id, deadline in
///       try pull.body(of: id, deadline: deadline)
///     }
///     card.body = try await bodies.body(of: card.id)
public final class BodyFetches: Sendable {
  public typealias Answer = @Sendable (Result<String, any Error>) -> Void

  private enum Fetch {
    case waiting([Answer])
    case failed(any Error)
  }

  private let fetches = Mutex<[String: Fetch]>([:])
  private let thread: BackgroundThread
  private let deadline: Duration
  private let now: @Sendable () -> ContinuousClock.Instant
  private let fetch: @Sendable (_ id: String, _ deadline: ContinuousClock.Instant) throws -> String

  /// `now` is the clock the deadlines are read on (tests move it).
  public init(
    thread: BackgroundThread, deadline: Duration,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
    fetch: @escaping @Sendable (_ id: String, _ deadline: ContinuousClock.Instant) throws -> String
  ) {
    self.thread = thread
    self.deadline = deadline
    self.now = now
    self.fetch = fetch
  }

  /// The body of the card `id`, or the error its one fetch ended in.
  @Sendable public func body(of id: String) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      ask(id) { continuation.resume(with: $0) }
    }
  }

  /// Asks for the body of the card `id`: `answer` gets it, or the error its one fetch ended in.
  public func ask(_ id: String, answer: @escaping Answer) {
    let (start, failure) = fetches.withLock { fetches -> (Bool, (any Error)?) in
      switch fetches[id] {
      case .failed(let error)?: return (false, error)
      case .waiting(let others)?:
        fetches[id] = .waiting(others + [answer])
        return (false, nil)
      case nil:
        fetches[id] = .waiting([answer])
        return (true, nil)
      }
    }
    if let failure { return answer(.failure(failure)) }
    guard start else { return }
    thread.async { [self] in finish(id, with: Result { try fetch(id, now() + deadline) }) }
  }

  /// Takes `id` as asked of the server once and failed elsewhere (the body precache), so that
  /// asking for it fails at once: a card costs the server one request, whoever made it.
  public func failedElsewhere(_ id: String) {
    fetches.withLock { fetches in
      if fetches[id] == nil { fetches[id] = .failed(FailedAhead()) }
    }
  }

  /// Forgets every failure: the cards can be asked for again (a new round of a type whose
  /// every card failed, once the server answers again).
  public func forgetFailures() {
    fetches.withLock { fetches in
      fetches = fetches.filter { _, fetch in if case .failed = fetch { false } else { true } }
    }
  }

  /// The cards whose one fetch failed (the precache passes over them).
  public var failed: Set<String> {
    fetches.withLock { fetches in
      Set(fetches.compactMap { id, fetch in if case .failed = fetch { id } else { nil } })
    }
  }

  /// A body the precache asked for in vain.
  struct FailedAhead: Error, CustomStringConvertible {
    var description: String { "the card's body could not be fetched" }
  }

  private func finish(_ id: String, with result: Result<String, any Error>) {
    let waiting = fetches.withLock { fetches -> [Answer] in
      guard case .waiting(let waiting)? = fetches[id] else { return [] }
      // A body fetched is stored: the next ask of a card still listed without it fetches again.
      if case .failure(let error) = result {
        fetches[id] = .failed(error)
      } else {
        fetches[id] = nil
      }
      return waiting
    }
    for answer in waiting { answer(result) }
  }
}
