/// Makes the scores the stores queue (after an install's reactions, at its auth, and for the
/// installs active lately when the population's evidence has moved), off the request path:
/// a pull only reads what is made here. Any number of server processes may run it on one store.
public enum BackgroundScoring {
  /// Runs until cancelled: the queue in batches, waiting `idle` when it is empty; every
  /// `sweepEvery` milliseconds, queues the installs active within `activeWithin`.
  public static func run(
    store: any ScoringStore, clock: @escaping @Sendable () -> Int64,
    idle: Duration = .milliseconds(100), sweepEvery: Int64 = 10 * 60_000,
    activeWithin: Int64 = 24 * 3_600_000
  ) async {
    var swept = clock()
    while !Task.isCancelled {
      let now = clock()
      if now - swept >= sweepEvery {
        swept = now
        _ = try? await store.queueActive(since: now - activeWithin)
      }
      let made = (try? await store.rescorePending(limit: 64, at: now)) ?? 0
      if made == 0 { try? await Task.sleep(for: idle) }
    }
  }
}
