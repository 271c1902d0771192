import Dispatch

/// Runs async work from the synchronous `main` and waits for it on the calling thread.
///
/// `ctfo`'s main is synchronous because an async `main` in a fully static binary ends in
/// `pthread_exit`, whose unwinding sorts every frame description of the binary, which every
/// command would pay. Only `ctfo next` with a large batch awaits, on the cooperative pool.
enum Blocking {
  static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Box<Result<T, any Error>>()
    Task {
      do {
        result.value = .success(try await work())
      } catch {
        result.value = .failure(error)
      }
      done.signal()
    }
    done.wait()
    return try result.value!.get()
  }

  /// Written by the task before the semaphore is signalled, read by the waiter after: the
  /// semaphore orders the two accesses.
  private final class Box<Value>: @unchecked Sendable {
    var value: Value?
  }
}
