import CTFOWire

/// A store whose every call that may wait ends by a deadline: past it the caller gets
/// `DeadlinePassed` (a request, `503`), and `failed` hears of it, as of every other error.
/// What a store on another machine is wrapped in: one that does not answer holds no request
/// for longer than the deadline.
final class GuardedStore: CardStore {
  private let base: any CardStore
  private let deadline: Duration
  private let failed: @Sendable (any Error) -> Void

  init(
    base: any CardStore, deadline: Duration, failed: @escaping @Sendable (any Error) -> Void
  ) {
    self.base = base
    self.deadline = deadline
    self.failed = failed
  }

  private func guarded<T: Sendable>(_ call: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    do {
      return try await withDeadline(deadline, call)
    } catch {
      failed(error)
      throw error
    }
  }

  func changes(since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?)
    async throws -> Changes
  {
    try await guarded { [base] in
      try await base.changes(since: revision, feed: feed, bodyLimit: bodyLimit, install: install)
    }
  }
  func ownChanges(install: String, feed: PullFeed) async throws -> Changes {
    try await guarded { [base] in try await base.ownChanges(install: install, feed: feed) }
  }
  func revision(install: String?, feed: PullFeed) async throws -> Int64 {
    try await guarded { [base] in try await base.revision(install: install, feed: feed) }
  }
  func epoch() async throws -> String {
    try await guarded { [base] in try await base.epoch() }
  }
  func card(id: String) async throws -> Wire.Card? {
    try await guarded { [base] in try await base.card(id: id) }
  }
  func load(cards: [Wire.Card], types: [Wire.CardType]) async throws -> LoadReport {
    try await guarded { [base] in try await base.load(cards: cards, types: types) }
  }
  func score(cardId: String, score: Double, at time: Int64) async throws -> Bool {
    try await guarded { [base] in try await base.score(cardId: cardId, score: score, at: time) }
  }
  func setStatus(install: String, to status: String) async throws -> Bool {
    try await guarded { [base] in try await base.setStatus(install: install, to: status) }
  }
  func notify(id: String, text: String, at time: Int64) async throws {
    try await guarded { [base] in try await base.notify(id: id, text: text, at: time) }
  }
  func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) async throws -> String {
    try await guarded { [base] in
      try await base.issueToken(hash: hash, installId: installId, expiresAt: expiresAt)
    }
  }
  func install(forToken hash: [UInt8], at time: Int64) async throws -> String? {
    try await guarded { [base] in try await base.install(forToken: hash, at: time) }
  }
  func record(events: [ReceivedEvent], install: String?, at time: Int64) async throws {
    try await guarded { [base] in try await base.record(events: events, install: install, at: time) }
  }
  func prune(at time: Int64, eventsBefore: Int64?) async throws -> PruneReport {
    // A prune cut by the deadline keeps the batches it deleted (each its own transaction);
    // the next prune goes on from there.
    try await guarded { [base] in try await base.prune(at: time, eventsBefore: eventsBefore) }
  }
  func events(sink: String) async throws -> [ReceivedEvent] {
    try await guarded { [base] in try await base.events(sink: sink) }
  }
  func eventReport(sink: String) async throws -> String {
    try await guarded { [base] in try await base.eventReport(sink: sink) }
  }
  func countRefused(sink: String, records: Int, requests: Int) async throws {
    try await guarded { [base] in
      try await base.countRefused(sink: sink, records: records, requests: requests)
    }
  }
  func dashboard(at time: Int64, minReactions: Int) async throws -> DashboardData {
    try await guarded { [base] in try await base.dashboard(at: time, minReactions: minReactions) }
  }

  func epochAtOnce() -> String? { base.epochAtOnce() }
  func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? {
    base.revisionAtOnce(install: install, feed: feed)
  }
  func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? {
    base.installAtOnce(forToken: hash, at: time)
  }
  func ownChangesAtOnce(install: String, feed: PullFeed, revision: Int64) -> Changes? {
    base.ownChangesAtOnce(install: install, feed: feed, revision: revision)
  }
  var sharesRequestCounts: Bool { base.sharesRequestCounts }
  func addRequestCounts(_ counts: [String: Int], window: Int64) async throws -> [String: Int] {
    try await guarded { [base] in try await base.addRequestCounts(counts, window: window) }
  }
}
