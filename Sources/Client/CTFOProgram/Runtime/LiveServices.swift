import App
import CardPreparation
import CardText
import Dispatch
import FeedCore
import FeedPipeline
import Store
import Synchronization

/// The app's services over the real feed, index and state writer: the runner of the effects
/// the pure `AppMachine` asks for. It decides nothing: the machine holds the session, the
/// focus, and the reactions waiting for their write; this class performs and reports back.
/// Besides the protocol's methods, what the launch and the tests read directly.
final class LiveServices: AppServices {
  private let launch: Launch
  private let feed: Feed
  private let writer: StateWriter
  private let reports: WriterReports
  private let problems: DeckProblemList
  private var area: TextArea
  private let mark: TruncationMark
  private let link: ServerLink?
  /// The state database's data version at the last look (see `storedSettings`).
  private var dataVersion: Int64?
  /// The analytics sinks (nil when analytics are off: nothing is sent then).
  private let analytics: AnalyticsRunner?
  /// `[hooks] reaction`, with its failures.
  private let hook: (run: ReactionHook, failures: HookFailures)?

  init(
    launch: Launch, feed: Feed, writer: StateWriter, reports: WriterReports,
    problems: DeckProblemList, area: TextArea, mark: TruncationMark, link: ServerLink?,
    analytics: AnalyticsRunner? = nil, hook: (run: ReactionHook, failures: HookFailures)? = nil
  ) {
    self.hook = hook
    self.analytics = launch.state.analytics == nil ? nil : analytics
    self.mark = mark
    self.link = link
    self.launch = launch
    self.feed = feed
    self.writer = writer
    self.reports = reports
    self.problems = problems
    self.area = area
    dataVersion = try? launch.database.dataVersion()
  }

  /// The session the last run left: its cards to come back, those whose type is off now or
  /// gone from the decks left out; new cards are shown under the numbers their rows will get.
  func session(window: UndoWindow, returning: [HistoryEntry]) -> Session {
    let next = (try? launch.state.nextIndex()) ?? 0
    guard !returning.isEmpty else { return Session(window: window, nextIndex: next) }
    let enabled = enabledTypes()
    let cards = returning.filter { enabled.contains($0.type) }.compactMap { entry in
      prepared(id: entry.cardID).map { ShownCard(prepared: $0, position: entry.index) }
    }
    return Session(window: window, returning: cards, nextIndex: next)
  }

  func poll(woken: Bool, session: Session) -> [AppMachine.Action] {
    var news: [AppMachine.Action] = []
    let reports = takeReports()
    // A wake-up always brings the reports, even none: the save problem shows as it is now.
    if woken || !reports.isEmpty { news.append(.written(reports)) }
    // The rest only on a wake-up: another process's setting wakes the loop (the state
    // folder's watcher), and a key's frame waits for no query.
    guard woken else { return news }
    if let stored = storedSettings() {
      news.append(
        .storedSettings(
          disabled: stored.disabled, types: stored.types, enabledNow: stored.enabledNow))
    }
    if let server = serverNews() {
      news.append(.serverNews(pulled: server.pulled, queuedEvents: server.queuedEvents))
    }
    if let live = liveNews(
      holds: { session.holds($0) }, undoable: session.window.tombstones.map(\.cardID))
    {
      news.append(.live(live))
    }
    return news
  }

  /// The state writer's reports since the last call, in order.
  func takeReports() -> [WriterReport] { reports.take() }

  func takeFromFeed() -> FeedItem { feed.takeReady() }

  func refill() { feed.refill() }

  func write(_ write: Session.Write) {
    let given = writer.enqueue(write.change)
    assert(given == write.sequence, "the writer numbers changes in the order they are given")
  }

  func retryWrites() {
    let writer = writer
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { writer.retry() }
  }

  func runHook(cardID: String, reaction: Reaction, time: Double) {
    // The reaction waits in the state database, queued by the change that made it final
    // (even when its card has left its source since).
    hook?.run.poke()
  }

  func deliverAnalytics() { analytics?.poke() }

  /// What live sources changed since the last call, the changed cards `holds` accepts laid
  /// out; with the ids of `undoable` still in a source when one replaced its collection. Nil
  /// when nothing changed.
  func liveNews(holds: (String) -> Bool, undoable: [String]) -> LiveChanges? {
    let news = feed.takeNews()
    let hookFailure = hook?.failures.take()
    guard !news.isEmpty || hookFailure != nil else { return nil }
    // Only the cards the session holds are laid out: a stream's updates mostly change cards
    // that are not on screen, and those are prepared when dealt.
    let laidOut = news.updated.values.filter { holds($0.id) }.map {
      Preparation.laidOut(Preparation.sanitized($0), for: area, mark: mark)
    }
    let stillThere = news.replaced ? Set(undoable.filter { prepared(id: $0) != nil }) : nil
    let messages = news.messages + (hookFailure.map { [$0] } ?? [])
    return LiveChanges(
      removed: news.removed, updated: laidOut, stillThere: stillThere, statuses: feed.statuses,
      message: messages.isEmpty ? nil : Self.summary(of: messages))
  }

  /// One status line for several messages: the first, and how many more.
  private static func summary(of messages: [String]) -> String {
    messages.count == 1 ? messages[0] : "\(messages[0]) (and \(messages.count - 1) more)"
  }

  func history(limit: Int, matching search: String?, reaction: Reaction??)
    -> (entries: [HistoryEntry], total: Int)
  {
    writer.waitUntilIdle()
    let entries =
      (try? launch.state.history(
        limit: limit, filter: HistoryFilter(reaction: reaction), matching: search)) ?? []
    return (entries, historyCount())
  }

  /// How many cards the history holds.
  func historyCount() -> Int { (try? launch.state.historyCount()) ?? 0 }

  func readingStats() -> ReadingStats {
    writer.waitUntilIdle()
    return (try? launch.readingStats()) ?? ReadingStats(swipesByDay: [:], today: 0, types: [])
  }

  func card(id: String) -> PreparedCard? { prepared(id: id) }

  func typeStatuses() -> [TypeStatus] { feed.statuses }

  func settings() -> (statuses: [TypeStatus], problems: [String]) {
    (feed.statuses, problems.lines)
  }

  func enabledTypes() -> Set<String> { Set(feed.statuses.filter(\.enabled).map(\.type.name)) }

  func enable(_ types: Set<String>) -> [TypeStatus] {
    feed.setEnabled(types)
    return feed.statuses
  }

  /// The types the state database holds disabled, nil when it cannot be read.
  func disabledTypes() -> Set<String>? { try? launch.state.disabledTypes() }

  /// When the state database changed since the last call: the types it holds disabled, every
  /// known type, and the types the feed deals now; nil when it did not.
  func storedSettings() -> (disabled: Set<String>, types: Set<String>, enabledNow: Set<String>)? {
    guard let version = try? launch.database.dataVersion(), version != dataVersion else {
      return nil
    }
    dataVersion = version
    guard let disabled = disabledTypes() else { return nil }
    let statuses = feed.statuses
    return (disabled, Set(statuses.map(\.type.name)), enabledTypes())
  }

  func resize(textArea area: TextArea) {
    self.area = area
    feed.resize(to: area)
  }

  /// The server's line when a pull ended since the last call, and the count of analytics
  /// events waiting for a failing sink when it changed; nil when neither.
  func serverNews() -> (pulled: ServerLine?, queuedEvents: Int?)? {
    let pulled = link?.take()
    let queued = analytics?.takeQueued()
    guard pulled != nil || queued != nil else { return nil }
    return (pulled, queued)
  }

  func pullNow() { link?.request(byUser: true) }

  func dismissNotice(id: String) { link?.dismiss(id: id) }

  func stopLink() { link?.stop() }

  func finishWrites() -> (unsaved: [UInt64], reports: [WriterReport]) {
    feed.stop()
    var unsaved = writer.waitUntilIdle()
    for _ in 0..<Self.retriesAtQuit where !unsaved.isEmpty {
      writer.retry()
      unsaved = writer.waitUntilIdle()
    }
    return (unsaved, takeReports())
  }

  func finish(unsaved: [UInt64], saveProblem: String?) {
    hook?.run.finish(within: Self.hooksAtQuit)
    if !unsaved.isEmpty {
      Output.warn(
        "ctfo: \(unsaved.count) changes could not be saved to \(launch.paths.stateDatabase): "
          + (saveProblem ?? "unknown error"))
    }
    analytics?.finish(within: Self.analyticsAtQuit)
  }

  /// How often quitting tries again to write what failed (each try waits up to SQLite's busy
  /// timeout for another process's lock).
  static let retriesAtQuit = 3
  /// How long quitting tries to send the queued analytics; the rest waits for the next run.
  static let analyticsAtQuit = Duration.seconds(2)
  /// How long quitting waits for reaction hooks still running (they go on after).
  static let hooksAtQuit = Duration.seconds(2)

  /// A card by id, sanitised and laid out for the current text area: a live source's data,
  /// or the index's when no live source touched it; nil when it is gone.
  private func prepared(id: String) -> PreparedCard? {
    guard let card = card(for: id) else { return nil }
    return Preparation.laidOut(Preparation.sanitized(card), for: area, mark: mark)
  }

  /// A card by id as its source holds it: a live source's, or the index's.
  private func card(for id: String) -> Card? {
    switch feed.lookUp(id) {
    case .live(let live): live
    case .removed: nil
    case .unknown: try? launch.index.card(id: id)
    }
  }
}

/// The problems of the decks, one line each, for the settings screen: those found at launch,
/// then those of the cards piped in (`--deck -`), added from the thread that reads them.
final class DeckProblemList: Sendable {
  private let list: Mutex<[String]>

  init(_ lines: [String]) { list = Mutex(lines) }

  var lines: [String] { list.withLock { $0 } }

  func append(_ line: String) { list.withLock { $0.append(line) } }
}
