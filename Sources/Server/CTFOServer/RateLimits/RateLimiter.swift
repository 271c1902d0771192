import Synchronization

/// A limit per key: `perMinute` requests in each minute-long window.
///
/// The windows live in two tables: the keys seen in the current minute of the limiter and
/// those of the minute before. Each minute the older table is dropped whole, so a request
/// costs one lookup whatever the number of keys, and what the limiter holds is two minutes'
/// keys at most (a table past `capacity` turns over early).
final class RateLimiter: Sendable {
  private struct Tables {
    var current: [String: (start: Int64, count: Int)] = [:]
    var previous: [String: (start: Int64, count: Int)] = [:]
    var turnedAt: Int64?
  }
  private let perMinute: Int
  private let clock: @Sendable () -> Int64
  private let capacity: Int
  private let tables = Mutex(Tables())

  init(perMinute: Int, clock: @escaping @Sendable () -> Int64, capacity: Int = 200_000) {
    self.perMinute = perMinute
    self.clock = clock
    self.capacity = capacity
  }

  /// Nil when the request may go on; else the seconds until the window ends.
  func admit(_ key: String) -> Int? {
    let now = clock()
    // The table dropped at a turn is released outside the lock.
    var dropped: [String: (start: Int64, count: Int)] = [:]
    let wait = tables.withLock { tables -> Int? in
      let turnedAt = tables.turnedAt ?? now
      if now - turnedAt >= 60_000 || now < turnedAt || tables.current.count >= capacity {
        dropped = tables.previous
        tables.previous = tables.current
        tables.current = [:]
        tables.turnedAt = now
      } else if tables.turnedAt == nil {
        tables.turnedAt = now
      }
      var window =
        tables.current[key] ?? tables.previous.removeValue(forKey: key) ?? (now, 0)
      if now - window.start >= 60_000 || now < window.start { window = (now, 0) }
      window.count += 1
      tables.current[key] = window
      guard window.count > perMinute else { return nil }
      return Int((window.start + 60_000 - now + 999) / 1000)
    }
    withExtendedLifetime(dropped) {}
    return wait
  }
}
