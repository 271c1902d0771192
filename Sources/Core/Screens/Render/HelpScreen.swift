import App
import CardText

/// Every key of the app, scrolled when the screen is too short for them all; the top row then
/// says which way there is more.
enum HelpScreen {
  /// Lines too long for the screen end with `mark`.
  static func draw(
    scroll: Int, bindings: KeyBindings, mouse: Bool, mark: TruncationMark,
    into grid: inout CellGrid, palette: Palette
  ) {
    grid.drawChrome("Keys", row: 0, column: 1, style: palette.title)
    let keys = HelpText.lines(bindings, mouse: mouse)
    let keyWidth = keys.map(\.keys.count).max() ?? 0
    let range = scroll..<min(scroll + Geometry.helpRows(height: grid.height), keys.count)
    for index in range {
      let row = Geometry.listTop + index - scroll
      grid.drawClipped(
        keys[index].keys, row: row, column: 2, style: palette.key, limit: grid.width - 1,
        mark: mark)
      grid.drawClipped(
        keys[index].action, row: row, column: 4 + keyWidth, limit: grid.width - 1, mark: mark)
    }
    grid.drawMoreMark(showing: range, of: keys.count, style: palette.quiet)
  }
}
