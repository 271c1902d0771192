import CardPreparation
import FeedCore

extension AppState {
  /// A key press: Ctrl-C quits; under the minimum size no other key but `q` and `?` acts. A
  /// swipe on the placeholder once it is on screen swipes nothing and says so; a key that
  /// must wait its turn is typed ahead; any other is handled now.
  mutating func press(_ key: Key) -> [AppEffect] {
    if key == .control("c") { return [.quit] }
    guard actsAtThisSize(key) else { return [] }
    if isShowingPlaceholder, swipeDirection(key) != nil {
      message = Self.nothingToSwipe
      return []
    }
    guard !waitsItsTurn(key) else {
      typedAhead.append(key)
      return []
    }
    return handle(key)
  }

  /// What the hint line says when a swipe comes while the placeholder is on screen: no card
  /// was seen, so no reaction is recorded.
  public static let nothingToSwipe = "Nothing swiped: the next card is still loading"

  /// True when `key` must wait: keys typed ahead are waiting, or it is a swipe and the card it
  /// would swipe has not been drawn yet (it comes after a swipe read with it, or before the
  /// app's first frame). While saving fails, `q` quits at once: the card the keys wait for
  /// comes only once its history row is saved.
  private func waitsItsTurn(_ key: Key) -> Bool {
    if keys.action(for: key) == .quit && saveProblem != nil { return false }
    return !typedAhead.isEmpty || (isWaitingForCard && swipeDirection(key) != nil)
  }

  /// True while the feed screen has no drawn card for a swipe: the placeholder stands for the
  /// next card, or the card dealt has not been on screen yet.
  private var isWaitingForCard: Bool {
    guard mode == .feed else { return false }
    switch feed {
    case .loading: return true
    case .card: return !feedDrawn
    case .unavailable: return false
    }
  }

  /// True while a frame shows the placeholder on the feed screen.
  private var isShowingPlaceholder: Bool { mode == .feed && feed == .loading && feedDrawn }

  /// True when keys typed ahead wait only for a frame to show the card dealt: the run loop
  /// draws one at once rather than wait for the next event.
  public var waitsForAFrame: Bool {
    guard !typedAhead.isEmpty, mode == .feed, case .card = feed else { return false }
    return !feedDrawn
  }

  /// Handles keys typed ahead, oldest first, until one asks for work whose result comes back
  /// as an action (which replays the rest) or the card they wait for is not drawn yet. Work
  /// that reports nothing (`r`'s pull, a dismissal) is gathered and the replay goes on:
  /// nothing would replay the keys after it.
  mutating func replayTypedAhead() -> [AppEffect] {
    var gathered: [AppEffect] = []
    while !typedAhead.isEmpty && !isWaitingForCard {
      let key = typedAhead.removeFirst()
      guard actsAtThisSize(key) else { continue }
      let effects = handle(key)
      gathered += effects
      if effects.contains(where: \.reportsBack) { break }
    }
    return gathered
  }

  /// Clears the transient message, finishes a slide-out at once, and goes to the screen that
  /// has the keys.
  private mutating func handle(_ key: Key) -> [AppEffect] {
    message = nil
    slide = nil
    switch mode {
    case .feed: return pressOnFeed(key)
    case .history(let browser): return pressInHistory(key, browser)
    case .fullCard(let view): return pressInFullCard(key, view)
    case .settings(let panel): return pressInSettings(key, panel)
    case .help(let origin, _): return pressInHelp(key, origin: origin)
    case .stats: return pressInStats(key)
    case .confirm(let question): return answer(key, question)
    }
  }

  /// True when `key` acts on a terminal of the current size: any key when it shows the
  /// screens, only quit and help when it is too small to show a card.
  private func actsAtThisSize(_ key: Key) -> Bool {
    Geometry.fits(width: width, height: height) || keys.action(for: key) == .quit
      || keys.action(for: key) == .help
  }

  private mutating func pressOnFeed(_ key: Key) -> [AppEffect] {
    if let direction = swipeDirection(key) { return swipe(direction) }
    switch keys.action(for: key) {
    case .history: return [.loadHistory(limit: Self.historyLimit)]
    case .open: openShownCard()
    case .undo: return [.undo]
    case .settings: return [.loadSettings]
    case .stats: return [.loadStats]
    case .help: mode = .help(origin: .feed)
    case .quit: return [.quit]
    case .pull: return [.pull]
    case .copy:
      guard case .card(let shown) = feed else { break }
      return copy(shown.prepared)
    case .dismiss:
      guard let notice = server.notice else { break }
      server.notices.removeFirst()
      return [.dismissNotice(id: notice.id)]
    default: break
    }
    return []
  }

  /// The swipe a key means on the feed (the arrows and their vi mirrors unless rebound).
  func swipeDirection(_ key: Key) -> SwipeDirection? {
    switch keys.action(for: key) {
    case .swipeRight: .right
    case .swipeLeft: .left
    case .swipeUp: .up
    default: nil
    }
  }

  /// Swipes the card on screen: it slides out (unless motion is `none`) while the next one is
  /// taken. Does nothing when no card can come (`.unavailable`) or none is shown.
  mutating func swipe(
    _ direction: SwipeDirection, from start: (dx: Int, dy: Int) = (0, 0)
  ) -> [AppEffect] {
    guard case .card(let card) = feed else { return [] }
    slide =
      motion == .full
      ? SlideOut(card: card, direction: direction, startColumn: start.dx, startRow: start.dy)
      : nil
    feed = .loading
    return [.swipe(card.prepared, direction), .takeNext]
  }

  mutating func openShownCard() {
    guard case .card(let card) = feed, card.hasMore else { return }
    mode = .fullCard(FullCardView(card: card.prepared, origin: .feed))
  }

  /// Back to the feed, where it was; takes a card if the placeholder was showing.
  mutating func returnToFeed() -> [AppEffect] {
    mode = .feed
    return fetchIfIdle()
  }

  private mutating func pressInHistory(_ key: Key, _ browser: HistoryBrowser) -> [AppEffect] {
    var browser = browser
    if let prompt = browser.prompt { return typeSearch(key, prompt, in: browser) }
    switch keys.action(for: key) {
    case .search:
      browser.prompt = ""
      mode = .history(browser)
      return []
    case .filter:
      return [
        .loadHistory(limit: Self.historyLimit, search: browser.search, filter: browser.filter.next)
      ]
    default: break
    }
    if let delta = Self.listMove(key, page: Geometry.historyRows(height: height)) {
      move(by: delta)
      return []
    }
    let selected =
      browser.entries.indices.contains(browser.viewport.selection)
      ? browser.entries[browser.viewport.selection] : nil
    switch keys.action(for: key) {
    case .undo:
      guard let selected else { return [] }
      return [.undoTo(historyIndex: selected.index)]
    case .bringBack:
      guard let selected else { return [] }
      return [.bringBack(id: selected.cardID)]
    default: break
    }
    switch key {
    case .enter, .space:
      guard let selected else { return [] }
      return [.openCard(id: selected.cardID)]
    case .escape where browser.search != nil:
      return [.loadHistory(limit: Self.historyLimit, filter: browser.filter)]
    case .escape, .character("q"): return returnToFeed()
    default: return []
    }
  }

  /// A key while the search prompt is open: text, Backspace, Enter to search (an empty search
  /// lists every card again), Esc to close the prompt and leave the list as it was.
  private mutating func typeSearch(
    _ key: Key, _ prompt: String, in browser: HistoryBrowser
  ) -> [AppEffect] {
    var browser = browser
    let room = prompt.count < HistoryBrowser.maxSearchLength
    switch key {
    case .character(let character) where room: browser.prompt = prompt + String(character)
    case .space where room: browser.prompt = prompt + " "
    case .backspace: browser.prompt = prompt.isEmpty ? nil : String(prompt.dropLast())
    case .escape: browser.prompt = nil
    case .enter:
      return [
        .loadHistory(
          limit: Self.historyLimit, search: prompt.isEmpty ? nil : prompt, filter: browser.filter)
      ]
    default: break
    }
    mode = .history(browser)
    return []
  }

  /// How far a key moves the selection of a list: arrows, vi keys, pages, home and end.
  static func listMove(_ key: Key, page: Int) -> Int? {
    switch key {
    case .up, .character("k"): -1
    case .down, .character("j"): 1
    case .pageUp: -max(page, 1)
    case .pageDown: max(page, 1)
    case .home: Int.min / 2
    case .end: Int.max / 2
    default: nil
    }
  }

  private mutating func pressInFullCard(_ key: Key, _ view: FullCardView) -> [AppEffect] {
    if keys.action(for: key) == .openLink { return openLink(of: view.card) }
    if keys.action(for: key) == .copy { return copy(view.card) }
    if let delta = Self.listMove(key, page: Geometry.fullCardRows(height: height)) {
      move(by: delta)
      return []
    }
    // The card of the feed is swiped from its whole view too (↑ scrolls there).
    if view.origin == .feed, let direction = swipeDirection(key) {
      mode = .feed
      return swipe(direction)
    }
    switch key {
    case .escape, .character("q"), .enter:
      mode = view.origin
      return mode == .feed ? fetchIfIdle() : []
    default: return []
    }
  }

  /// Copies the card's title, text, source and link to the clipboard, and says so; says why
  /// not when `clipboard = false`.
  private mutating func copy(_ card: PreparedCard) -> [AppEffect] {
    guard clipboard else {
      message = "Copying is off (clipboard = false in config.toml)"
      return []
    }
    let text = ClipboardText.of(card.card)
    message = "Copied the card to the clipboard (\(text.utf8.count) bytes)"
    return [.copy(text)]
  }

  /// Opens the card's link when it is an http or https URL; says why not otherwise.
  private mutating func openLink(of card: PreparedCard) -> [AppEffect] {
    guard let url = card.card.url, !url.isEmpty else {
      message = "This card has no link"
      return []
    }
    guard WebLink.isOpenable(url) else {
      message = "Only http and https links are opened"
      return []
    }
    return [.openURL(url)]
  }

  private mutating func pressInSettings(_ key: Key, _ panel: SettingsPanel) -> [AppEffect] {
    if let delta = Self.listMove(key, page: Geometry.settingsRows(height: height)) {
      move(by: delta)
      return []
    }
    switch key {
    case .space, .enter:
      guard panel.statuses.indices.contains(panel.viewport.selection) else { return [] }
      let status = panel.statuses[panel.viewport.selection]
      return [.setEnabled(type: status.type.name, enabled: !status.enabled, confirmed: false)]
    case .escape, .character("q"): return returnToFeed()
    case _ where keys.action(for: key) == .settings: return returnToFeed()
    default: return []
    }
  }

  private mutating func pressInHelp(_ key: Key, origin: AppMode) -> [AppEffect] {
    if let delta = Self.listMove(key, page: Geometry.helpRows(height: height)) {
      move(by: delta)
      return []
    }
    guard [.escape, .character("q"), .enter].contains(key) || keys.action(for: key) == .help
    else { return [] }
    mode = origin
    return mode == .feed ? fetchIfIdle() : []
  }

  /// The stats scroll as the help does; Esc, `q`, Enter or the stats key go back to the feed.
  private mutating func pressInStats(_ key: Key) -> [AppEffect] {
    if let delta = Self.listMove(key, page: Geometry.fullCardRows(height: height)) {
      move(by: delta)
      return []
    }
    guard [.escape, .character("q"), .enter].contains(key) || keys.action(for: key) == .stats
    else { return [] }
    return returnToFeed()
  }

  private mutating func answer(_ key: Key, _ question: Confirmation) -> [AppEffect] {
    switch key {
    case .character("y"), .character("Y"), .enter:
      mode = question.origin
      return [question.onYes]
    case .character("n"), .character("N"), .escape, .character("q"):
      mode = question.origin
      return []
    default: return []
    }
  }

  /// Applies the result of enabling or disabling a type.
  mutating func settingChanged(_ outcome: SettingOutcome) {
    switch outcome {
    case .applied(let statuses): learn(statuses)
    case .refused(let reason): message = reason
    case .needsConfirmation(let question): askBeforeToggling(question)
    }
  }

  private mutating func askBeforeToggling(_ question: String) {
    guard case .settings(let panel) = mode,
      panel.statuses.indices.contains(panel.viewport.selection)
    else { return }
    let status = panel.statuses[panel.viewport.selection]
    let yes = AppEffect.setEnabled(
      type: status.type.name, enabled: !status.enabled, confirmed: true)
    mode = .confirm(Confirmation(question: question, onYes: yes, origin: mode))
  }

  /// Moves the selection of the screen's list, or scrolls its text, by `delta` rows, kept
  /// within it: what the list keys and the wheel do, and a resize (by 0).
  mutating func move(by delta: Int) {
    func scrolled(_ scroll: Int) -> Int { scroll.addingReportingOverflow(delta).partialValue }
    switch mode {
    case .history(var browser):
      let rows = Geometry.historyRows(height: height)
      browser.viewport.move(by: delta, count: browser.entries.count, rows: rows)
      mode = .history(browser)
    case .settings(var panel):
      let rows = Geometry.settingsRows(height: height)
      panel.viewport.move(by: delta, count: panel.statuses.count, rows: rows)
      mode = .settings(panel)
    case .fullCard(var view):
      view.scroll = Geometry.clampedScroll(
        scrolled(view.scroll), card: view.card, width: width, height: height)
      mode = .fullCard(view)
    case .help(let origin, let scroll):
      mode = .help(
        origin: origin, scroll: Geometry.clampedHelpScroll(scrolled(scroll), height: height))
    case .stats(var view):
      view.scroll = Geometry.clampedStatsScroll(
        scrolled(view.scroll), stats: view.stats, width: width, height: height)
      mode = .stats(view)
    case .feed, .confirm: break
    }
  }

}
