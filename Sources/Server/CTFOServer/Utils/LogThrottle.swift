import Synchronization

/// Lets a line of the log through at most once per `interval`, and counts those held back.
final class LogThrottle: Sendable {
  private let interval: Duration
  private let now: @Sendable () -> ContinuousClock.Instant
  private let state = Mutex<(last: ContinuousClock.Instant?, dropped: Int)>((nil, 0))

  init(
    interval: Duration = .seconds(1),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
  ) {
    self.interval = interval
    self.now = now
  }

  /// Nil to hold the line back; else how many were held back since the last one let through.
  func admit() -> Int? {
    let now = now()
    return state.withLock { state in
      if let last = state.last, now - last < interval {
        state.dropped += 1
        return nil
      }
      defer { state = (now, 0) }
      return state.dropped
    }
  }
}
