import App
import CardText
import CommandSupport
import Dispatch
import FeedCore
import FeedPipeline
import Store

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
  private let problems: [String]
  private var session: Session
  private var area: TextArea
  private let mark: TruncationMark
  private let link: ServerLink?
  /// The state database's data version and disabled types at the last look (see
  /// `settingsChangedElsewhere`).
  private var dataVersion: Int64?
  private var storedDisabled: Set<String>?

  init(
    launch: Launch, feed: Feed, writer: StateWriter, reports: WriterReports,
    window: UndoWindow, returning: [HistoryEntry], problems: [String], area: TextArea,
    mark: TruncationMark, link: ServerLink?
  ) {
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
    guard !returning.isEmpty else { return }
    // Cards whose type is off now, or gone from the decks, leave the queue.
    let enabled = Set(feed.statuses.filter(\.enabled).map(\.type.name))
    let cards = returning.filter { enabled.contains($0.type) }.compactMap { entry in
      prepared(id: entry.cardID).map { ShownCard(prepared: $0, position: entry.index) }
    }
    session = Session(window: window, returning: cards)
  }

  private var now: Double { NextRequest.now() }

  func refresh() -> String? {
    for report in reports.take() {
      switch report {
      case .committed(let sequence, let indices): session.committed(sequence, indices: indices)
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
    return session.next(now: now) { feed.takeNext() }
  }

  func swipe(_ card: PreparedCard, _ direction: SwipeDirection) {
    session.swipe(card, direction)
  }

  func undo() -> ShownCard? {
    session.undo(now: now) { prepared(id: $0) }
  }

  func history(limit: Int, matching search: String?) -> [HistoryEntry] {
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

  func card(id: String) -> PreparedCard? { prepared(id: id) }

  func typeStatuses() -> [TypeStatus] { feed.statuses }

  func deckProblems() -> [String] { problems }

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
    }
  }

  func serverLine() -> ServerLine? { link?.take() }

  func pullNow() { link?.request() }

  func dismissNotice(id: String) { link?.dismiss(id: id) }

  func close() {
    link?.stop()
    session.close(now: now)
    frameDrawn()
    feed.stop()
    var unsaved = writer.waitUntilIdle()
    for _ in 0..<Self.retriesAtQuit where !unsaved.isEmpty {
      writer.retry()
      unsaved = writer.waitUntilIdle()
    }
    if !unsaved.isEmpty {
      Output.warn(
        "ctfo: \(unsaved.count) changes could not be saved to \(launch.paths.stateDatabase): "
          + (session.saveProblem ?? "unknown error"))
    }
  }

  /// How often quitting tries again to write what failed (each try waits up to SQLite's busy
  /// timeout for another process's lock).
  static let retriesAtQuit = 3

  /// A card from the index, sanitised and laid out for the current text area.
  private func prepared(id: String) -> PreparedCard? {
    guard let card = try? launch.index.card(id: id) else { return nil }
    return Preparation.laidOut(Preparation.sanitized(card), for: area, mark: mark)
  }
}
