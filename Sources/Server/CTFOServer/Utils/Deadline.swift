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
      try? await Task.sleep(for: limit)
      guard let waiting = waiting.take() else { return }
      work.cancel()
      waiting.resume(throwing: DeadlinePassed(limit: limit))
    }
    Task {
      let result = await work.result
      timer.cancel()
      waiting.take()?.resume(with: result)
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
