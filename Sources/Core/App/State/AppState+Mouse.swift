import FeedCore

extension AppState {
  /// A mouse report. On the feed, the card is dragged: let go past a third of its width (or
  /// height, upward) it is swiped that way, short of that it settles back, and a click opens
  /// it as Enter does. In the history and settings lists a click selects a row and a click on
  /// the selected row opens (or toggles) it. The wheel scrolls lists, the whole card and the
  /// help. Hint-bar clicks are the run loop's: they arrive as the hint's key. A report off the
  /// screen counts at its nearest cell.
  mutating func mouse(_ report: MouseEvent) -> [AppEffect] {
    guard Geometry.fits(width: width, height: height), typedAhead.isEmpty else {
      pointer = nil
      return []
    }
    let event = report.clamped(width: width, height: height)
    switch event.kind {
    case .wheelUp: scroll(by: -1)
    case .wheelDown: scroll(by: 1)
    case .press:
      message = nil
      slide = nil
      let onCard = cardFrame?.contains(column: event.column, row: event.row) ?? false
      pointer = PointerPress(column: event.column, row: event.row, holdsCard: onCard)
    case .drag:
      pointer?.column = event.column
      pointer?.row = event.row
    case .release:
      guard var press = pointer else { return [] }
      pointer = nil
      (press.column, press.row) = (event.column, event.row)
      return letGo(press)
    }
    return []
  }

  /// The feed's card box on screen now; nil on other screens and while no card is shown.
  public var cardFrame: BoxFrame? {
    guard mode == .feed, case .card(let card) = feed else { return nil }
    return Geometry.cardFrame(
      lines: card.prepared.layout.lines.count, width: width, height: height)
  }

  /// Where the dragged card stands: the pointer's move, never downward, and never so far that
  /// the card leaves the screen (the press may date from a larger screen).
  public var dragOffset: (dx: Int, dy: Int)? {
    guard let pointer, pointer.holdsCard, let frame = cardFrame else { return nil }
    return onScreen(pointer, frame)
  }

  /// The move of `pointer` for a card in `frame`, upward only, bounded so that at least one
  /// cell of the card stays on the screen.
  private func onScreen(_ pointer: PointerPress, _ frame: BoxFrame) -> (dx: Int, dy: Int) {
    func bounded(_ value: Int, _ low: Int, _ high: Int) -> Int {
      min(max(value, low), max(high, low))
    }
    return (
      bounded(pointer.dx, 1 - frame.right, width - 1 - frame.left),
      bounded(min(pointer.dy, 0), -frame.bottom, 0)
    )
  }

  /// What letting go of the dragged card now does, for the hint bar; nil while it would
  /// settle back.
  public var dragHint: String? {
    guard let pointer, pointer.holdsCard, let frame = cardFrame,
      let direction = pointer.swipe(of: frame)
    else { return nil }
    let reaction = direction.reaction
    return "Let go to swipe \(direction.rawValue): \(reaction.rawValue), \(reaction.meaning)"
  }

  private mutating func letGo(_ release: PointerPress) -> [AppEffect] {
    if mode == .feed {
      guard release.holdsCard, let frame = cardFrame else { return [] }
      if let direction = release.swipe(of: frame) {
        // The card slides on from where it was let go.
        return swipe(direction, from: onScreen(release, frame))
      }
      if release.isClick { openShownCard() }
      return []
    }
    // In a list, a click selects the entry drawn on its row, or acts on it as Enter does when
    // it is selected already.
    guard release.isClick, let (viewport, count) = list else { return [] }
    let index = viewport.top + release.row - Geometry.listTop
    guard release.row >= Geometry.listTop, (0..<count).contains(index) else { return [] }
    guard index == viewport.selection else {
      select(index)
      return []
    }
    return press(.enter)
  }

  /// The list on screen that takes clicks and how many entries it has: the history (unless
  /// its search prompt is open) and the settings.
  private var list: (ListViewport, count: Int)? {
    switch mode {
    case .history(let browser) where browser.prompt == nil:
      (browser.viewport, browser.entries.count)
    case .settings(let panel): (panel.viewport, panel.statuses.count)
    default: nil
    }
  }

  /// Selects entry `index` of the list on screen.
  private mutating func select(_ index: Int) {
    switch mode {
    case .history(var browser):
      browser.viewport.selection = index
      mode = .history(browser)
    case .settings(var panel):
      panel.viewport.selection = index
      mode = .settings(panel)
    default: break
    }
  }

  /// Lines the wheel scrolls text by, one turn: a list moves by one entry.
  static let wheelLines = 3

  /// One turn of the wheel: the list's selection moves, the text scrolls; the feed keeps still,
  /// and so does the history while its search prompt is open.
  private mutating func scroll(by turns: Int) {
    if case .history(let browser) = mode, browser.prompt != nil { return }
    move(by: turns * (list == nil ? Self.wheelLines : 1))
  }
}
