import App
import CardText

/// Draws the app's state: the screen of its mode, the hint bar, the transient message, or the
/// "terminal too small" message.
///
///     var grid = CellGrid(width: state.width, height: state.height)
///     AppScreen.render(state, into: &grid, colour: session.hasColour)
///     session.draw(grid)
public enum AppScreen {
  /// Renders `state` into `grid` (sized to the terminal), replacing every cell.
  public static func render(_ state: AppState, into grid: inout CellGrid, colour: Bool) {
    draw(state, into: &grid, colour: colour)
    if state.ascii { AsciiChrome.fold(&grid) }
  }

  private static func draw(_ state: AppState, into grid: inout CellGrid, colour: Bool) {
    let palette = Palette(colour: colour)
    grid.clear(row: 0, column: 0, width: grid.width, height: grid.height)
    guard Geometry.fits(width: grid.width, height: grid.height) else {
      return drawTooSmall(into: &grid, palette: palette)
    }
    drawMode(state.mode, state: state, into: &grid, palette: palette)
    if case .history(let browser) = state.mode, let prompt = browser.prompt {
      return HintBar.drawPrompt(prompt, into: &grid, palette: palette)
    }
    let onFeed = state.mode == .feed
    if onFeed, let notice = state.server.notice, grid.height > Geometry.minimumHeight {
      HintBar.drawNotice(notice, keys: state.keys, into: &grid, palette: palette)
    }
    HintBar.draw(
      hints(state), message: state.message ?? state.dragHint ?? state.saveProblem,
      mark: onFeed ? state.server.mark : nil, status: onFeed ? state.server.shownStatus : nil,
      cut: state.mark, into: &grid, palette: palette)
  }

  /// The key of the hint-bar item drawn at `column`, `row` of `state`'s screen: what a click
  /// there presses. Nil off the hint bar, between items, and while a message, the search
  /// prompt or the "too small" message stands in the row.
  public static func hintKey(atColumn column: Int, row: Int, in state: AppState) -> Key? {
    guard row == state.height - 1, Geometry.fits(width: state.width, height: state.height),
      state.message ?? state.dragHint ?? state.saveProblem == nil
    else { return nil }
    if case .history(let browser) = state.mode, browser.prompt != nil { return nil }
    let onFeed = state.mode == .feed
    return HintBar.key(
      at: column, of: hints(state), mark: onFeed ? state.server.mark : nil,
      status: onFeed ? state.server.shownStatus : nil, width: state.width)
  }

  private static func drawMode(
    _ mode: AppMode, state: AppState, into grid: inout CellGrid, palette: Palette
  ) {
    switch mode {
    case .feed:
      CardScreen.draw(
        state.feed, slide: state.slide, drag: state.dragOffset, types: state.types,
        mark: state.mark, into: &grid, palette: palette)
    case .history(let browser):
      HistoryScreen.draw(
        browser, types: state.types, mark: state.mark, into: &grid, palette: palette)
    case .fullCard(let view):
      FullCardScreen.draw(view, types: state.types, into: &grid, palette: palette)
    case .settings(let panel):
      SettingsScreen.draw(panel, mark: state.mark, into: &grid, palette: palette)
    case .stats(let view):
      StatsScreen.draw(
        view, ascii: state.ascii, mark: state.mark, into: &grid, palette: palette)
    case .help(_, let scroll):
      HelpScreen.draw(
        scroll: scroll, bindings: state.keys, mouse: state.mouse, mark: state.mark, into: &grid,
        palette: palette)
    case .confirm(let question):
      drawMode(question.origin, state: state, into: &grid, palette: palette)
      ConfirmDialog.draw(question, into: &grid, palette: palette)
    }
  }

  private static func hints(_ state: AppState) -> HintBar.Hints {
    switch state.mode {
    case .feed: return HintBar.feed(state.keys)
    case .history(let browser):
      return HintBar.Hints(all: HintBar.history(state.keys, found: browser.search != nil))
    case .fullCard(let view):
      return HintBar.Hints(
        all: HintBar.fullCard(
          state.keys, link: !(view.card.card.url ?? "").isEmpty, swipes: view.origin == .feed))
    case .settings: return HintBar.Hints(all: HintBar.settings)
    case .stats: return HintBar.Hints(all: HintBar.help)
    case .help: return HintBar.Hints(all: HintBar.help)
    case .confirm: return HintBar.Hints(all: HintBar.confirm)
    }
  }

  /// The message for a terminal under the minimum size, wrapped to whatever fits, down to 1x1.
  private static func drawTooSmall(into grid: inout CellGrid, palette: Palette) {
    let text = "Too small: needs \(Geometry.minimumWidth)x\(Geometry.minimumHeight)"
    let lines = CardLayout.layout(title: nil, body: text, width: grid.width, height: grid.height)
      .lines
    let top = max((grid.height - lines.count) / 2, 0)
    for (i, line) in lines.enumerated() {
      grid.draw(
        line, row: top + i, column: max((grid.width - line.count) / 2, 0), style: palette.title)
    }
  }
}
