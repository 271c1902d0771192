import CardText

/// The bottom row: the keys of the screen, or the transient message when there is one.
enum HintBar {
  /// A key and what it does.
  typealias Hint = (key: String, action: String)

  static func draw(
    _ hints: [Hint], message: String?, into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 1
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    if let message {
      grid.draw(" " + Untrusted.line(message) + " ", row: row, column: 0, style: palette.message)
      return
    }
    var column = 1
    for hint in hints {
      let width = hint.key.count + 1 + hint.action.count
      guard column + width <= grid.width else { break }
      column = grid.drawChrome(hint.key, row: row, column: column, style: palette.key)
      column = grid.drawChrome(" " + hint.action, row: row, column: column, style: palette.quiet)
      column += 2
    }
  }

  static let feed: [Hint] = [
    ("→", "TFU"), ("←", "TIFB"), ("↑", "CTFO"), ("↓", "history"), ("u", "undo"),
    ("s", "settings"), ("?", "help"), ("q", "quit"),
  ]
  static let more: Hint = ("Enter", "more")
  static let history: [Hint] = [("↑↓", "move"), ("Enter", "open"), ("Esc", "back")]
  static let fullCard: [Hint] = [("↑↓", "scroll"), ("Esc", "back")]
  static let settings: [Hint] = [("↑↓", "move"), ("Space", "toggle"), ("Esc", "back")]
  static let help: [Hint] = [("Esc", "back")]
  static let confirm: [Hint] = [("y", "yes"), ("n", "no")]
}
