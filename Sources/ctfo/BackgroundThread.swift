#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import Synchronization

/// A serial queue on a thread of its own that yields to the UI: its nice value is raised by
/// `niceness` (Linux gives each thread its own), so a long pull's decoding and applying take
/// the CPU only when the run loop and the preparations do not need it. Runs its work in order.
final class BackgroundThread: Sendable {
  private struct State {
    var work: [@Sendable () -> Void] = []
  }

  private let state = Mutex(State())
  /// Counts the work waiting: the thread sleeps on it when there is none.
  private let pending = DispatchSemaphore(value: 0)

  init(niceness: Int32 = 10) {
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

  /// Runs `work` after the work given before it.
  func async(_ work: @escaping @Sendable () -> Void) {
    state.withLock { $0.work.append(work) }
    pending.signal()
  }

  fileprivate func next() -> @Sendable () -> Void {
    pending.wait()
    return state.withLock { $0.work.removeFirst() }
  }

  private final class Context: Sendable {
    // The thread lives as long as the process (the app has one link); it holds its owner.
    let owner: BackgroundThread
    let niceness: Int32

    init(owner: BackgroundThread, niceness: Int32) {
      self.owner = owner
      self.niceness = niceness
    }

    func run() {
      // On Linux, PRIO_PROCESS with 0 names the calling thread only (setpriority(2), NOTES).
      // A failure leaves the thread at the process's priority: slower swipes at worst.
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
      while true { owner.next()() }
    }
  }
}
