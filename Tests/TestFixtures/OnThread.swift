import Foundation

/// Runs the blocking `body` (an HTTP exchange, a raw connection) on a thread of its own: on the
/// cooperative pool it would hold one of the threads an in-process server's handlers need.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}
