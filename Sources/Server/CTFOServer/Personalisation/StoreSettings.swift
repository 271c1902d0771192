/// A store that makes the personaliser's scores off the request path (`BackgroundScoring`).
public protocol ScoringStore: Sendable {
  /// Makes new scores for up to `limit` installs queued for them (after their reactions, at
  /// their auth, or by `queueActive`); returns how many installs it took.
  func rescorePending(limit: Int, at time: Int64) async throws -> Int
  /// Queues for new scores the installs active since `since`: the population's evidence moved.
  func queueActive(since: Int64) async throws -> Int
}

extension SQLiteCardStore: ScoringStore {
  /// How the personaliser scores: the defaults, or a simulation's.
  public var personalisation: PersonalisationSettings {
    get { personalisationSettings.withLock { $0 } }
    set { personalisationSettings.withLock { $0 = newValue } }
  }
}

extension PostgresCardStore: ScoringStore {
  public var personalisation: PersonalisationSettings {
    get { personalisationSettings.withLock { $0 } }
    set { personalisationSettings.withLock { $0 = newValue } }
  }
}
