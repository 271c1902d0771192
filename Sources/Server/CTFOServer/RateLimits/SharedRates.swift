import Synchronization

/// A limit of requests per install and minute across every server process on one store: each
/// process counts its own and, on a request at most once a second (never while idle), adds what
/// it counted since to the store's counts and learns the other processes' from the answer
/// (`RequestCountStore.addRequestCounts`).
///
/// Windows are whole minutes of the wall clock, the same in every process. A process knows the
/// others' requests as of its last exchange with the store, so an install may pass the limit by
/// what the other processes admitted for it in the second before (and during one exchange); a
/// client held to N requests a minute by one process is held to N plus about N/60 per other
/// process by several.
final class SharedRates: Sendable {
  private struct Count {
    var window: Int64
    /// This process's requests in the window, and those of them not yet sent to the store.
    var own = 0
    var unsent = 0
    /// The other processes' requests in the window, as the store said last.
    var others = 0
  }

  private struct State {
    var counts: [String: Count] = [:]
    var lastSent: Int64?
    var sending: Task<Void, Never>?
  }

  private let perMinute: Int
  private let clock: @Sendable () -> Int64
  private let store: any RequestCountStore
  private let state = Mutex(State())

  init(perMinute: Int, clock: @escaping @Sendable () -> Int64, store: any RequestCountStore) {
    self.perMinute = perMinute
    self.clock = clock
    self.store = store
  }

  /// Nil when `install` may make the request (then it is counted); else the seconds until the
  /// window ends.
  func admit(_ install: String) -> Int? {
    let now = clock()
    let window = Self.window(now)
    return state.withLock { state -> Int? in
      var count =
        state.counts[install].flatMap { $0.window == window ? $0 : nil }
        ?? Count(window: window)
      guard count.own + count.others < perMinute else {
        state.counts[install] = count
        return Int((window + 60_000 - now + 999) / 1000)
      }
      count.own += 1
      count.unsent += 1
      state.counts[install] = count
      if state.sending == nil, state.lastSent.map({ now - $0 >= 1000 || now < $0 }) ?? true {
        state.lastSent = now
        state.sending = Task { await self.send(window: window) }
      }
      return nil
    }
  }

  /// Waits for the exchange under way, then makes one with what is left unsent: what a test
  /// awaits instead of the next request's.
  func settle() async {
    if let sending = state.withLock({ $0.sending }) { await sending.value }
    await send(window: Self.window(clock()))
  }

  /// The minute `time` is in, as the milliseconds of its start.
  private static func window(_ time: Int64) -> Int64 {
    time - ((time % 60_000) + 60_000) % 60_000
  }

  /// Sends the counts not yet sent for `window` and takes the totals the store answers.
  private func send(window: Int64) async {
    let batch = state.withLock { state -> [String: Int] in
      state.counts = state.counts.filter { $0.value.window >= window }
      var batch: [String: Int] = [:]
      for (install, count) in state.counts where count.unsent > 0 && count.window == window {
        batch[install] = count.unsent
        state.counts[install]?.unsent = 0
      }
      return batch
    }
    let totals = try? await store.addRequestCounts(batch, window: window)
    state.withLock { state in
      state.sending = nil
      for (install, sent) in batch {
        guard var count = state.counts[install], count.window == window else { continue }
        if let total = totals?[install] {
          count.others = max(count.others, total - (count.own - count.unsent))
        } else {
          count.unsent += sent  // The store failed: sent with the next exchange.
        }
        state.counts[install] = count
      }
    }
  }
}
