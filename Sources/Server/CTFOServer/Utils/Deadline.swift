import Synchronization

/// `operation`, or `DeadlinePassed` when it has not ended within `limit` (it is cancelled,
/// and not waited for: a call that ignores cancellation holds no caller past the deadline).
func withDeadline<T: Sendable>(
  _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let work = Task { try await operation() }
  return try await withCheckedThrowingContinuation { continuation in
    let waiting = Waiting(continuation)
    let timer = Task {
      // A cancelled sleep ends at once: only a timer that slept its whole limit may answer.
      guard (try? await Task.sleep(for: limit)) != nil, let waiting = waiting.take() else {
        return
      }
      work.cancel()
      waiting.resume(throwing: DeadlinePassed(limit: limit))
    }
    Task {
      let result = await work.result
      // The result first, then the timer: cancelled first, the timer woke at once and could
      // take the continuation before the result did ("no answer within 5 s" the moment a
      // call answered).
      waiting.take()?.resume(with: result)
      timer.cancel()
    }
  }
}

/// A continuation resumed once, by whichever of two tasks comes first.
private final class Waiting<T: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<T, any Error>?>
  init(_ continuation: CheckedContinuation<T, any Error>) {
    self.continuation = Mutex(continuation)
  }
  func take() -> CheckedContinuation<T, any Error>? { continuation.withLock { $0.take() } }
}

/// What `withDeadline` throws.
struct DeadlinePassed: Error, CustomStringConvertible {
  var limit: Duration
  var description: String { "no answer within \(limit)" }
}
