import Synchronization

/// Prunes the store (`OperatorStore.prune`) on a request that finds it due, at most once a
/// minute of the settings' clock: no task of its own, and nothing to prune while idle.
final class Housekeeping: Sendable {
  private let store: any OperatorStore
  private let settings: ServerSettings
  private let last = Mutex<Int64?>(nil)

  init(store: any OperatorStore, settings: ServerSettings) {
    self.store = store
    self.settings = settings
  }

  /// A prune that fails (the store busy) fails no request: it is tried again when next due.
  func runIfDue() async {
    let now = settings.clock()
    let due = last.withLock { last in
      guard last.map({ now - $0 >= 60_000 || now < $0 }) ?? true else { return false }
      last = now
      return true
    }
    guard due else { return }
    _ = try? await store.prune(at: now, eventsBefore: settings.eventsRetention.map { now - $0 })
  }
}
