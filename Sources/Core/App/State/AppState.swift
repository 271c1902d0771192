import CardPreparation
import CardText
import FeedCore

/// The interactive app's whole state: pure data, changed only by `reduce(_:)`.
///
///     var state = AppState(width: 80, height: 24)
///     let effects = state.start()  // [.loadTypes, .resizeTextArea(...), .takeNext]
///     state.reduce(.dealt(.card(card), position: 0))  // the card is on screen
public struct AppState: Sendable, Hashable {
  /// How many history entries the history view loads.
  public static let historyLimit = 1000

  public var width: Int
  public var height: Int
  public var feed: FeedDisplay = .loading {
    didSet { if !feed.isSameItem(as: oldValue) { feedDrawn = false } }
  }
  /// Whether a frame has shown what `feed` holds (`.drawn`): a swipe acts only on a card that
  /// was on screen, and one on the placeholder once it showed swipes nothing. The card laid
  /// out again or renumbered is the card seen.
  public private(set) var feedDrawn = false
  public var mode: AppMode = .feed
  public var slide: SlideOut?
  /// The left mouse button while it is held down (a drag of the card, a click).
  public var pointer: PointerPress?
  /// A transient line ("Nothing to undo"); the next key clears it.
  public var message: String?
  /// Why state cannot be saved at the moment; shown until a save succeeds.
  public var saveProblem: String?
  /// Every known type by name: labels and colours.
  public var types: [String: CardType] = [:]
  /// Keys typed before the card they act on was drawn (after a swipe, or before the app's
  /// first frame), oldest first: they act, in order, once a frame has shown it.
  public var typedAhead: [Key] = []
  /// What ends text cut to fit a line ("…", or "..." where "…" may be drawn two cells wide);
  /// decided once at launch from the environment.
  public let mark: TruncationMark
  /// Which keys do what (config.toml's `[keys]`).
  public let keys: KeyBindings
  /// Whether a swipe slides out (`motion` in config.toml).
  public let motion: Motion
  /// Whether `y` copies a card to the clipboard (`clipboard` in config.toml).
  public let clipboard: Bool
  /// Whether the screens draw only ASCII of their own (`--ascii`, `ascii` in config.toml).
  public let ascii: Bool
  /// Whether the terminal reports the mouse to the app (the help then says what it does).
  public let mouse: Bool
  /// The server's mark and notification (nothing without a server).
  public var server = ServerLine()

  public init(
    width: Int, height: Int, mark: TruncationMark = .ellipsis, keys: KeyBindings = .standard,
    motion: Motion = .full, clipboard: Bool = true, ascii: Bool = false, mouse: Bool = false
  ) {
    self.ascii = ascii
    self.mouse = mouse
    self.width = width
    self.height = height
    self.mark = mark
    self.keys = keys
    self.motion = motion
    self.clipboard = clipboard
  }

  /// The effects that start the app.
  public func start() -> [AppEffect] {
    let area = Geometry.textArea(width: width, height: height)
    return [.loadTypes, .resizeTextArea(area), .takeNext]
  }

  /// True while the slide-out plays: the run loop then waits for at most one frame.
  public var isAnimating: Bool { slide != nil }

  /// Applies an action; returns the effects for the run loop to perform, in order. When the
  /// action asks for no work, the keys typed ahead that can act now act.
  public mutating func reduce(_ action: AppAction) -> [AppEffect] {
    let effects = apply(action)
    return effects.isEmpty ? replayTypedAhead() : effects
  }

  private mutating func apply(_ action: AppAction) -> [AppEffect] {
    switch action {
    case .key(let key): return press(key)
    case .mouse(let event): return mouse(event)
    case .resized(let w, let h): return resize(width: w, height: h)
    case .wake: return mode == .feed ? fetchIfIdle() : []
    case .saveProblem(let problem): saveProblem = problem
    case .frame: advanceSlide()
    case .drawn:
      // Under the minimum size the frame showed no card.
      if mode == .feed && Geometry.fits(width: width, height: height) { feedDrawn = true }
    case .terminate: return [.quit]
    case .dealt(let item, let position): deal(item, position: position)
    case .undone(let card): undone(card)
    case .undoRefused(let reason): message = reason
    case .liveChanged(let update):
      liveChanged(update)
      return mode == .feed ? fetchIfIdle() : []
    case .typesLoaded(let statuses): learn(statuses)
    case .historyLoaded(let entries, let total, let search, let filter):
      mode = .history(
        HistoryBrowser(entries: entries, total: total, search: search, filter: filter))
    case .statsLoaded(let stats): mode = .stats(StatsView(stats: stats))
    case .cardOpened(let card): open(card)
    case .broughtBack(let title):
      // The hint bar sanitises what it draws.
      message = title.map { "“\($0)” comes next" } ?? "That card is in no deck now"
    case .settingsLoaded(let statuses, let problems): openSettings(statuses, problems: problems)
    case .settingChanged(let outcome): settingChanged(outcome)
    case .urlOpened(let failure): message = failure
    case .serverChanged(let line): server = line
    }
    return []
  }

  /// Takes a card when the feed screen shows none.
  func fetchIfIdle() -> [AppEffect] {
    if case .card = feed { return [] }
    return [.takeNext]
  }

  private mutating func advanceSlide() {
    guard var s = slide else { return }
    s.frame += 1
    slide = s.frame < SlideOut.frames ? s : nil
  }

  private mutating func deal(_ item: FeedItem, position: Int) {
    switch item {
    case .card(let card):
      feed = .card(ShownCard(prepared: fitted(card), position: position))
      if message == Self.nothingToSwipe { message = nil }
    case .loading: feed = .loading
    case .unavailable(let reason): feed = .unavailable(reason)
    }
  }

  private mutating func liveChanged(_ update: LiveUpdate) {
    learn(update.statuses)
    if let message = update.message { self.message = message }
    guard case .card(var shown) = feed,
      let new = update.updated.last(where: { $0.card.id == shown.prepared.card.id })
    else { return }
    shown.prepared = fitted(new)
    feed = .card(shown)
  }

  private mutating func undone(_ card: ShownCard?) {
    guard var card else {
      message = "Nothing to undo"
      return
    }
    card.prepared = fitted(card.prepared)
    slide = nil
    feed = .card(card)
    // An undo from the history (`u` on a card) shows the card it brought back.
    if case .history = mode { mode = .feed }
  }

  /// Learns the types' labels; an open settings screen shows the new counts and settings.
  mutating func learn(_ statuses: [TypeStatus]) {
    for status in statuses { types[status.type.name] = status.type }
    guard case .settings(var panel) = mode else { return }
    panel.statuses = statuses
    mode = .settings(panel)
  }

  private mutating func open(_ card: PreparedCard?) {
    guard let card else {
      message = "That card is no longer available"
      return
    }
    mode = .fullCard(FullCardView(card: card, origin: mode))
  }

  private mutating func openSettings(_ statuses: [TypeStatus], problems: [String]) {
    learn(statuses)
    mode = .settings(SettingsPanel(statuses: statuses, problems: problems))
  }

  private mutating func resize(width w: Int, height h: Int) -> [AppEffect] {
    let old = Geometry.textArea(width: width, height: height)
    // A card the "too small" message hid has not been seen yet.
    if !Geometry.fits(width: width, height: height) { feedDrawn = false }
    (width, height) = (w, h)
    if case .card(var card) = feed {
      card.prepared = relaidOut(card.prepared)
      feed = .card(card)
    }
    move(by: 0)
    let new = Geometry.textArea(width: w, height: h)
    return old == new ? [] : [.resizeTextArea(new)]
  }

  /// The card as dealt, or laid out again if it does not fit the text area (it was prepared
  /// before a resize that the feed had not caught up with).
  func fitted(_ card: PreparedCard) -> PreparedCard {
    let area = Geometry.textArea(width: width, height: height)
    let fits =
      card.layout.lines.count <= area.height
      && card.layout.lines.allSatisfy { DisplayWidth.of($0) <= area.width }
    return fits ? card : relaidOut(card)
  }

  /// The card laid out for the current text area.
  func relaidOut(_ card: PreparedCard) -> PreparedCard {
    let area = Geometry.textArea(width: width, height: height)
    var card = card
    card.layout = CardLayout.layout(
      title: card.card.title, body: card.card.body, width: area.width, height: area.height,
      mark: mark)
    return card
  }
}

extension FeedDisplay {
  /// Whether `other` shows the same thing: the same card (however laid out or numbered), the
  /// placeholder, or the same reason nothing can be shown.
  fileprivate func isSameItem(as other: FeedDisplay) -> Bool {
    switch (self, other) {
    case (.loading, .loading): true
    case (.card(let a), .card(let b)): a.prepared.card.id == b.prepared.card.id
    case (.unavailable(let a), .unavailable(let b)): a == b
    default: false
    }
  }
}
