import App
import CTFOClient
import CTFOWire
import Dispatch
import FeedCore
import FeedPipeline
import Store
import Synchronization
import Terminal
import YieldToUser

/// The app's link to the CTFO server: pulls on a queue of its own, at launch, every
/// `pull-interval` and when asked (`r`), one at a time; a pull asked for while one runs is
/// folded into it, and one the user asks for goes before the card bodies waiting. Each pull's
/// end is kept for the UI thread and wakes it; swiping never waits. After a pull, the bodies it
/// left out are fetched ahead, one at a time in the keys' pauses, within `precache-budget`, so
/// its cards can be read offline.
///
/// A pull is a live source: its new and changed cards and its removals reach the
/// running feed at once, and so do its scores. The app's pulls keep every indexed card at its
/// ordinal (`ServerStore.apply(keepOrdinals:)`), so the feed built at launch stays right; the
/// holes they leave close at the next launch.
///
/// The running app's one way to the server: `ServerPull` does one pull or fetch (and `ctfo
/// pull`'s), `BodyFetches` the bodies the feed asks for, `ServerTraffic` lets analytics talk
/// only while the link is quiet.
final class ServerLink: Sendable {
  private let pull: ServerPull
  private let store: ServerStore
  private let feed = Mutex<Feed?>(nil)
  private let wake: WakePipe
  /// Every pull and card body runs here, one at a time, on a thread that yields to the UI.
  /// (The analytics sinks have threads of their own: a batch the server holds never holds a
  /// pull.)
  private let queue: BackgroundThread
  /// Records the pulls' analytics events (nil: analytics are off), then calls `recorded`.
  private let analytics: (outbox: Outbox, context: Outbox.Context)?
  private let recorded: @Sendable () -> Void
  // Dispatch sources are safe to use from any thread; Dispatch does not say Sendable.
  nonisolated(unsafe) private let timer: any DispatchSourceTimer
  private let state = Mutex(State())

  private struct State {
    /// A pull waits to run or runs.
    var queued = false
    /// The queued pull has begun.
    var running = false
    /// The latest pull queued: an earlier one still waiting was overtaken by the user's.
    var ticket = 0
    var line: ServerLine?
    /// The body precache is under way (one chain of fetches at a time).
    var precaching = false
  }

  /// The body precache's budget in bytes (`Configuration.precacheBudget`).
  private let precacheBudget: Int

  /// How long a pull may take.
  static let deadline = Duration.seconds(10)

  /// The deck index the feed was built from (where a changed card was at launch).
  private let index: DeckIndex

  init(
    pull: ServerPull, store: ServerStore, index: DeckIndex, interval: Int, precacheBudget: Int,
    wake: WakePipe, analytics: (outbox: Outbox, context: Outbox.Context)? = nil,
    recorded: @escaping @Sendable () -> Void = {}
  ) {
    self.precacheBudget = precacheBudget
    self.analytics = analytics
    self.recorded = recorded
    self.pull = pull
    let queue = BackgroundThread()
    self.queue = queue
    bodies = BodyFetches(thread: queue, deadline: Self.bodyDeadline) { id, deadline in
      try pull.body(of: id, deadline: deadline)
    }
    self.store = store
    self.index = index
    self.wake = wake
    timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(
      deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .seconds(5))
  }

  /// Pulls now, and every interval from now on; the pulls' scores go to `feed`.
  func start(feed: Feed) {
    self.feed.withLock { $0 = feed }
    timer.setEventHandler { [weak self] in self?.request() }
    timer.resume()
    request()
  }

  func stop() { timer.cancel() }

  /// Asks for a pull; nothing more when one is running, or waiting and `byUser` is false. One
  /// the user asked for (`r`) runs before the card bodies waiting, and overtakes a pull that
  /// waits behind them.
  func request(byUser: Bool = false) {
    let ticket = state.withLock { state -> Int? in
      guard !state.queued || (byUser && !state.running) else { return nil }
      state.queued = true
      state.ticket += 1
      return state.ticket
    }
    guard let ticket else { return }
    queue.async(first: byUser) { [self] in run(ticket) }
  }

  /// The line to show since the last call, if a pull ended meanwhile.
  func take() -> ServerLine? {
    state.withLock { state in
      defer { state.line = nil }
      return state.line
    }
  }

  /// How long a card's body may take to come, from the moment it is asked for (feed-logic.md,
  /// "Handling Errors": a card that fails is skipped).
  static let bodyDeadline = Duration.seconds(2)

  /// The bodies of cards a pull sent without them, from the server, on the link's queue (so
  /// pulls and bodies are one request at a time), each asked for once; its preparation waits,
  /// the UI never does.
  let bodies: BodyFetches

  func dismiss(id: String) {
    queue.async { [store] in try? store.dismiss(id: id) }
  }

  /// "PullDone" or "PullFailed", with what the pull changed or why it failed.
  private func record(_ outcome: ServerPull.Outcome) {
    guard let analytics else { return }
    let event: AnalyticsEvent
    switch outcome {
    case .unchanged: event = AnalyticsEvent("PullDone", ["changed": .bool(false)])
    case .applied(let applied):
      event = AnalyticsEvent(
        "PullDone",
        [
          "changed": .bool(true), "cards": .integer(Int64(applied.cards)),
          "removed": .integer(Int64(applied.removed)), "scores": .integer(Int64(applied.scores)),
        ])
    case .failed(let reason):
      event = AnalyticsEvent("PullFailed", ["reason": .string(String(reason.prefix(200)))])
    }
    let time = Double(APIClient.systemMilliseconds()) / 1000
    guard (try? analytics.outbox.record([event], at: time, context: analytics.context)) != nil
    else { return }
    recorded()
  }

  private func run(_ ticket: Int) {
    let current = state.withLock { state in
      guard state.ticket == ticket else { return false }
      state.running = true
      return true
    }
    guard current else { return }
    Courtesy.pause()
    let outcome = pull.run(deadline: .now + Self.deadline, keepOrdinals: true)
    // Asked for while this pull ran (`r`, the timer): folded into it, not run again after.
    state.withLock {
      $0.queued = false
      $0.running = false
    }
    if case .applied(let applied) = outcome, let feed = feed.withLock({ $0 }) {
      let removed = applied.removedKeys
      let index = index
      feed.apply(
        LiveCollection.Change(
          added: applied.changed,
          removed: removed.map { Card(id: $0.key, type: $0.value.type, body: "") })
      ) { removed[$0] ?? (try? index.key(of: $0)) }
      let enabled = Set(feed.statuses.filter(\.enabled).map(\.type.name))
      if let scores = try? store.scores(of: enabled) { feed.updateScores(scores) }
    }
    let answered: Bool = if case .failed = outcome { false } else { true }
    if answered, let feed = feed.withLock({ $0 }), feed.hasFailedTypes {
      // The server answers again: a type whose every card failed gets a new round, its
      // bodies asked for anew.
      bodies.forgetFailures()
      feed.renewFailedTypes()
    }
    record(outcome)
    var line = ServerLine()
    if case .failed = outcome { line.offline = true }
    let now = APIClient.systemMilliseconds()
    line.notices = ((try? store.notices(at: now)) ?? []).map {
      ServerLine.Notice(id: $0.id, text: $0.text)
    }
    line.userStatus = try? store.status(at: now).userStatus
    state.withLock { $0.line = line }
    wake.wake()
    if case .failed = outcome { return }
    precacheNext()
  }

  /// Fetches the next body a pull left out, on the link's queue after what waits there (a pull,
  /// a card's body), once the keys pause; then the next, until none is missing or the budget
  /// is full. One fetch a turn, so nothing the user waits for queues behind the precache.
  private func precacheNext(continuing: Bool = false) {
    let start = state.withLock { state in
      defer { state.precaching = true }
      return continuing || !state.precaching
    }
    guard start, precacheBudget > 0 else { return }
    queue.async { [self] in
      Courtesy.pause()
      switch pull.precacheOne(
        budget: precacheBudget, skipping: bodies.failed, deadline: .now + Self.bodyDeadline)
      {
      case .stored: precacheNext(continuing: true)
      case .failed(let id):
        // Asked once: its preparation skips it rather than asking again.
        bodies.failedElsewhere(id)
        precacheNext(continuing: true)
      case .done: state.withLock { $0.precaching = false }
      }
    }
  }
}
