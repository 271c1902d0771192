import Synchronization

/// Whether the store answers, from the last health check: a check less than a second old
/// (by `clock`) is the answer; else one check is made, which every `/readyz` meanwhile awaits,
/// and which ends by its deadline. A thousand `/readyz` at once cost the store one query, and
/// a store that hangs holds none of them past the deadline.
final class Readiness: Sendable {
  private struct State {
    var problem: String?
    var checkedAt: Int64?
    var running: Task<String?, Never>?
  }
  private let store: any PullStore
  private let clock: @Sendable () -> Int64
  private let deadline: Duration
  private let state = Mutex(State())

  init(
    store: any PullStore, clock: @escaping @Sendable () -> Int64,
    deadline: Duration = .seconds(2)
  ) {
    self.store = store
    self.clock = clock
    self.deadline = deadline
  }

  /// Nil when the store answered the last check; else why it did not.
  func problem() async -> String? {
    let now = clock()
    let check = state.withLock { state -> Task<String?, Never>? in
      if let checkedAt = state.checkedAt, (0..<1000).contains(now - checkedAt) { return nil }
      if let running = state.running { return running }
      let running = Task { await self.check() }
      state.running = running
      return running
    }
    guard let check else { return state.withLock { $0.problem } }
    return await check.value
  }

  private func check() async -> String? {
    var problem: String?
    do {
      try await withDeadline(deadline) { try await self.store.answers() }
    } catch {
      problem = "\(error)"
    }
    let now = clock()
    state.withLock { state in
      state.problem = problem
      state.checkedAt = now
      state.running = nil
    }
    return problem
  }
}
