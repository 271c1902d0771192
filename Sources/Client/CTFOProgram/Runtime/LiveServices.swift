import App
import CardPreparation
import CardText
import Dispatch
import FeedCore
import FeedPipeline
import Store
import Synchronization

/// The app's services over the real feed, index and state writer: a thin runner of the pure
/// `Session`, which decides everything; this class only performs what it asks for.
///
/// A card taken from the feed is shown only once its history row has committed (the session
/// holds it meanwhile); the writer's reports arrive through `WriterReports` and the wake-up
/// pipe, and reach the session in `refresh()`.
final class LiveServices: AppServices {
  private let launch: Launch
  private let feed: Feed
  private let writer: StateWriter
  private let reports: WriterReports
  private let problems: DeckProblemList
  private var session: Session
  private var area: TextArea
  private let mark: TruncationMark
  private let link: ServerLink?
  /// The state database's data version and disabled types at the last look (see
  /// `settingsChangedElsewhere`).
  private var dataVersion: Int64?
  private var storedDisabled: Set<String>?
  /// The analytics sinks (nil when analytics are off: nothing is recorded then).
  private let analytics: AnalyticsRunner?
  /// The card on screen and since when (seconds), for its `Focus` event.
  private var focus: (id: String, type: String, since: Double)?
  /// The history is open: opening it again (a search, a page) is not a new "HistoryOpened".
  private var inHistory = false
  /// What the hint bar last showed of the server and the analytics.
  private var line = ServerLine()
  /// `[hooks] reaction`, with its failures; the reactions made final by each write not yet
  /// committed, by the write's sequence (the hook runs once the reaction is stored for good).
  private let hook: (run: ReactionHook, failures: HookFailures)?
  private var finalAfterWrite: [UInt64: [FinalReaction]] = [:]

  init(
    launch: Launch, feed: Feed, writer: StateWriter, reports: WriterReports,
    window: UndoWindow, returning: [HistoryEntry], problems: DeckProblemList, area: TextArea,
    mark: TruncationMark, link: ServerLink?, analytics: AnalyticsRunner? = nil,
    hook: (run: ReactionHook, failures: HookFailures)? = nil
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
    session = Session(window: window)
    dataVersion = try? launch.database.dataVersion()
    storedDisabled = try? launch.state.disabledTypes()
    defer { record([AnalyticsEvent("AppStart")]) }
    guard !returning.isEmpty else { return }
    // Cards whose type is off now, or gone from the decks, leave the queue.
    let enabled = Set(feed.statuses.filter(\.enabled).map(\.type.name))
    let cards = returning.filter { enabled.contains($0.type) }.compactMap { entry in
      prepared(id: entry.cardID).map { ShownCard(prepared: $0, position: entry.index) }
    }
    session = Session(window: window, returning: cards)
  }

  private var now: Double { NextRequest.now() }

  /// Records `events` with a change of their own, when analytics are on.
  private func record(_ events: [AnalyticsEvent]) {
    guard launch.state.analytics != nil else { return }
    session.record(events, now: now)
  }

  /// The `Focus` event of the card on screen, which leaves it now.
  private func endFocus() -> [AnalyticsEvent] {
    guard launch.state.analytics != nil, let focus else { return [] }
    self.focus = nil
    let ms = Int64(max(0, (now - focus.since) * 1000).rounded())
    return [.focus(cardID: focus.id, type: focus.type, milliseconds: ms)]
  }

  func refresh() -> String? {
    var committed = false
    defer { if committed { analytics?.poke() } }
    for report in reports.take() {
      switch report {
      case .committed(let sequence, let indices):
        committed = true
        session.committed(sequence, indices: indices)
        for reaction in finalAfterWrite.removeValue(forKey: sequence) ?? [] {
          hook?.run.start(reaction)
        }
      case .failed(let reason):
        session.failed(reason: reason)
        // The writer holds the change (and those after it) until told to try again.
        let writer = writer
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { writer.retry() }
      }
    }
    return session.saveProblem
  }

  func takeNext() -> (item: FeedItem, position: Int) {
    _ = refresh()
    inHistory = false
    let next = session.next(now: now) { feed.takeNext() }
    if case .card(let card) = next.item, focus?.id != card.card.id {
      focus = (card.card.id, card.card.type, now)
    }
    return next
  }

  func swipe(_ card: PreparedCard, _ direction: SwipeDirection) {
    inHistory = false
    session.swipe(card, direction, events: endFocus())
  }

  func undo() -> Session.UndoOutcome {
    // The card on screen keeps its focus when the swipe's card is gone and nothing changes.
    let back = session.window.tombstones.last.flatMap { prepared(id: $0.cardID) }
    let left = back == nil ? [] : endFocus()
    let outcome = session.undo(now: now, events: left) { _ in back }
    if case .restored(let restored) = outcome {
      focus = (restored.prepared.card.id, restored.prepared.card.type, now)
    }
    return outcome
  }

  func liveNews() -> LiveUpdate? {
    let news = feed.takeNews()
    let hookFailure = hook?.failures.take()
    guard !news.isEmpty || hookFailure != nil else { return nil }
    session.remove(ids: news.removed)
    // Only the cards the session holds are laid out: a stream's updates mostly change cards
    // that are not on screen, and those are prepared when dealt.
    let held = news.updated.values.filter { session.holds($0.id) }
    let laidOut = held.map {
      Preparation.laidOut(Preparation.sanitized($0), for: area, mark: mark)
    }
    let byID = Dictionary(laidOut.map { ($0.card.id, $0) }) { _, last in last }
    session.update(held) { byID[$0.id]! }
    if news.replaced {
      session.sourceReplaced(now: now) { prepared(id: $0) != nil }
    }
    let messages = news.messages + (hookFailure.map { [$0] } ?? [])
    return LiveUpdate(
      updated: laidOut, statuses: feed.statuses,
      message: messages.isEmpty ? nil : Self.summary(of: messages))
  }

  /// One status line for several messages: the first, and how many more.
  private static func summary(of messages: [String]) -> String {
    messages.count == 1 ? messages[0] : "\(messages[0]) (and \(messages.count - 1) more)"
  }

  func history(limit: Int, matching search: String?) -> [HistoryEntry] {
    if !inHistory {
      inHistory = true
      record([AnalyticsEvent("HistoryOpened")])
    }
    frameDrawn()
    writer.waitUntilIdle()
    do {
      guard let search else { return try launch.state.history(limit: limit) }
      return try launch.state.history(limit: limit, matching: search)
    } catch {
      return []
    }
  }

  func historyCount() -> Int { (try? launch.state.historyCount()) ?? 0 }

  func card(id: String) -> PreparedCard? {
    let card = prepared(id: id)
    if let card {
      record([AnalyticsEvent("CardOpened", ["card_id": .string(id), "card_type": .string(card.card.type)])])
    }
    return card
  }

  func typeStatuses() -> [TypeStatus] { feed.statuses }

  func deckProblems() -> [String] { problems.lines }

  func setEnabled(_ type: String, _ enabled: Bool, confirmed: Bool) -> SettingOutcome {
    let enabledNow = Set(feed.statuses.filter(\.enabled).map(\.type.name))
    switch session.setEnabled(
      type, enabled, confirmed: confirmed, enabledNow: enabledNow, now: now)
    {
    case .refused(let reason): return .refused(reason)
    case .needsConfirmation(let question): return .needsConfirmation(question)
    case .apply(let types, _):
      feed.setEnabled(types)
      return .applied(feed.statuses)
    }
  }

  func settingsChangedElsewhere() -> [TypeStatus]? {
    guard let version = try? launch.database.dataVersion(), version != dataVersion else {
      return nil
    }
    dataVersion = version
    guard let disabled = try? launch.state.disabledTypes() else { return nil }
    defer { storedDisabled = disabled }
    // Unchanged, or this app's own setting now written: nothing to adopt.
    guard let before = storedDisabled, disabled != before else { return nil }
    let statuses = feed.statuses
    let enabled = Set(statuses.map(\.type.name)).subtracting(disabled)
    guard !enabled.isEmpty, enabled != Set(statuses.filter(\.enabled).map(\.type.name)) else {
      return nil
    }
    session.adoptEnabled(enabled)
    feed.setEnabled(enabled)
    return feed.statuses
  }

  func resize(textArea area: TextArea) {
    self.area = area
    feed.resize(to: area)
  }

  func frameDrawn() {
    for write in session.takeWrites() {
      let given = writer.enqueue(write.change)
      assert(given == write.sequence, "the writer numbers changes in the order they are given")
      if hook != nil { noteFinalReactions(of: write) }
    }
  }

  /// Keeps the reactions `write` makes final, with their cards, for the hook to run on once
  /// the write commits.
  private func noteFinalReactions(of write: Session.Write) {
    let time = write.change.time > 0 ? write.change.time : now
    let final = finalReactions(in: write.change.effects, time: time)
    if !final.isEmpty { finalAfterWrite[write.sequence] = final }
  }

  /// Runs the hook on the reactions the launch made final (`on-launch = clear-gracefully`),
  /// already written.
  func launched(_ effects: [UndoEffect]) {
    for reaction in finalReactions(in: effects, time: now) { hook?.run.start(reaction) }
  }

  private func finalReactions(in effects: [UndoEffect], time: Double) -> [FinalReaction] {
    effects.compactMap { effect in
      guard case .commit(let tombstone) = effect, let card = card(for: tombstone.cardID) else {
        return nil
      }
      return FinalReaction(card: card, reaction: tombstone.direction.reaction, time: time)
    }
  }

  /// The server's line, with the count of analytics events waiting for a failing sink.
  func serverLine() -> ServerLine? {
    let pulled = link?.take()
    let queued = analytics?.takeQueued()
    guard pulled != nil || queued != nil else { return nil }
    if let pulled {
      line = ServerLine(
        offline: pulled.offline, notices: pulled.notices, queuedEvents: line.queuedEvents,
        userStatus: pulled.userStatus)
    }
    if let queued { line.queuedEvents = queued }
    return line
  }

  func pullNow() { link?.request(byUser: true) }

  func dismissNotice(id: String) {
    line.notices.removeAll { $0.id == id }
    link?.dismiss(id: id)
  }

  func close() {
    link?.stop()
    let quitting = launch.state.analytics == nil ? [] : endFocus() + [AnalyticsEvent("AppQuit")]
    session.close(now: now, events: quitting)
    frameDrawn()
    feed.stop()
    var unsaved = writer.waitUntilIdle()
    for _ in 0..<Self.retriesAtQuit where !unsaved.isEmpty {
      writer.retry()
      unsaved = writer.waitUntilIdle()
    }
    _ = refresh()
    hook?.run.finish(within: Self.hooksAtQuit)
    if !unsaved.isEmpty {
      Output.warn(
        "ctfo: \(unsaved.count) changes could not be saved to \(launch.paths.stateDatabase): "
          + (session.saveProblem ?? "unknown error"))
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
