import CTFOWire
import Synchronization

/// What was read from a store lately, by key, each value taken for a second after it was
/// read: a pull answered at once costs no query, and a change by another process reaches it
/// within that second. This process's own changes reach it at once: a change forgets every
/// value (`forget`), and a read that began before it is not kept.
final class RecentReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct State: Sendable {
    var kept: [Key: (value: Value, readAt: ContinuousClock.Instant)] = [:]
    /// How many times every value was forgotten.
    var generation = 0
  }
  private let state = Mutex(State())
  private let lifetime = Duration.seconds(1)
  private let capacity: Int
  private let isNewer: @Sendable (_ kept: Value, _ read: Value) -> Bool
  private let now: @Sendable () -> ContinuousClock.Instant

  /// Holds at most `capacity` values (all are dropped when it is full); a value read is not
  /// kept over one read less than a second before that `isNewer` than it. `now`: the clock.
  init(
    capacity: Int,
    isNewer: @escaping @Sendable (_ kept: Value, _ read: Value) -> Bool = { _, _ in false },
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
  ) {
    self.capacity = capacity
    self.isNewer = isNewer
    self.now = now
  }

  /// What a read begun now passes to `remember`.
  var generation: Int { state.withLock { $0.generation } }

  /// Keeps `value`, read by a read begun at `generation`, unless the store was changed since
  /// by this process.
  func remember(_ value: Value, for key: Key, readAt generation: Int) {
    let now = now()
    state.withLock { state in
      guard state.generation == generation else { return }
      if state.kept.count >= capacity { state.kept.removeAll(keepingCapacity: true) }
      // A read that began before a newer one ended must not put an older value back.
      if let kept = state.kept[key], now - kept.readAt < lifetime, isNewer(kept.value, value) {
        return
      }
      state.kept[key] = (value, now)
    }
  }

  /// The value read for `key` less than a second ago.
  func value(for key: Key) -> Value? {
    guard let kept = state.withLock({ $0.kept[key] }), now() - kept.readAt < lifetime
    else { return nil }
    return kept.value
  }

  /// Forgets every value: this process changed the store.
  func forget() {
    state.withLock { state in
      state.kept.removeAll(keepingCapacity: true)
      state.generation &+= 1
    }
  }
}

/// A pull's store reads kept a second (`RecentReads`): revisions by install (nil: what every
/// client receives) and feed, and, in a store that answers full pulls at once, each install's
/// own part of its full pull.
struct PullReads: Sendable {
  struct Key: Hashable, Sendable {
    var install: String?
    var feed: PullFeed
  }
  let revisions = RecentReads<Key, Int64>(capacity: 100_000, isNewer: { $0 > $1 })
  /// An install's own part, with the revision of the pull it was read for: it serves pulls of
  /// that revision only, so that no body says an older revision's own part beside a newer key.
  let ownChanges = RecentReads<Key, (revision: Int64, changes: Changes)>(capacity: 10_000)

  /// Forgets what was read: this process changed the store.
  func forget() {
    revisions.forget()
    ownChanges.forget()
  }
}
