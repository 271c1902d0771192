#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import Synchronization
import YieldToUser

/// A serial queue on a thread of its own that yields to the UI (`Courtesy`): it runs at nice
/// `niceness`, gives the CPU up at its yield points, and its pulls and flushes wait for pauses
/// in the user's keys. Runs its work in order, but for work given `first`, which goes before
/// all the work waiting (a pull the user asked for).
public final class BackgroundThread: Sendable {
  private struct State {
    var work: [@Sendable () -> Void] = []
  }

  private let state = Mutex(State())
  /// Counts the work waiting: the thread sleeps on it when there is none.
  private let pending = DispatchSemaphore(value: 0)

  public init(niceness: Int32 = 10) {
    let context = Unmanaged.passRetained(Context(owner: self, niceness: niceness)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
        context.run()
        return nil
      }, context)
    precondition(started == 0, "ctfo: cannot start a thread")
    pthread_detach(thread)
  }

  /// Runs `work` after the work given before it, or with `first`, before any work waiting.
  public func async(first: Bool = false, _ work: @escaping @Sendable () -> Void) {
    state.withLock { state in
      if first { state.work.insert(work, at: 0) } else { state.work.append(work) }
    }
    pending.signal()
  }

  fileprivate func next() -> @Sendable () -> Void {
    pending.wait()
    return state.withLock { $0.work.removeFirst() }
  }

  private final class Context: Sendable {
    // The thread lives as long as the process (the app has a few); it holds its owner.
    let owner: BackgroundThread
    let niceness: Int32

    init(owner: BackgroundThread, niceness: Int32) {
      self.owner = owner
      self.niceness = niceness
    }

    func run() {
      Courtesy.becomeBackground(niceness: niceness)
      while true { owner.next()() }
    }
  }
}
