import Dispatch
import Synchronization

/// Who talks to the server in the running app: the link's requests (pulls, card bodies) never
/// wait, and the analytics sink's wait until none of them is in flight. So one request is in
/// flight while the link talks, and a batch of events the server holds never holds a pull: the
/// user's `r` starts at once beside it.
///
///     let traffic = ServerTraffic()
///     traffic.link { pull.run(deadline: d) }             // on the link's thread
///     try traffic.background { try pull.exchange(...) }  // on the sink's thread: waits its turn
public final class ServerTraffic: Sendable {
  private struct State {
    var link = 0
    var waiting = 0
  }

  private let state = Mutex(State())
  /// Signalled once for each waiter when the link's last request ends.
  private let idle = DispatchSemaphore(value: 0)
  /// Called as a background request begins to wait (tests).
  private let waits: @Sendable () -> Void

  public init(waits: @escaping @Sendable () -> Void = {}) {
    self.waits = waits
  }

  /// Runs `request`, one of the link's, at once.
  public func link<T>(_ request: () throws -> T) rethrows -> T {
    state.withLock { $0.link += 1 }
    defer {
      let woken = state.withLock { state -> Int in
        state.link -= 1
        guard state.link == 0 else { return 0 }
        defer { state.waiting = 0 }
        return state.waiting
      }
      for _ in 0..<woken { idle.signal() }
    }
    return try request()
  }

  /// Runs `request` once none of the link's requests is in flight.
  public func background<T>(_ request: () throws -> T) rethrows -> T {
    while state.withLock({ state in
      guard state.link > 0 else { return false }
      state.waiting += 1
      return true
    }) {
      waits()
      idle.wait()
    }
    return try request()
  }
}
