import App
import CardText

/// Every key of the app.
enum HelpScreen {
  static let keys: [(keys: String, action: String)] = [
    ("→  l", "swipe right: TFU"),
    ("←  h", "swipe left: TIFB"),
    ("↑  k", "swipe up: CTFO"),
    ("↓  j", "history"),
    ("Enter Space", "the whole card, when cut"),
    ("u  Backspace", "undo the last swipe"),
    ("s", "settings: card types"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
    ("", ""),
    ("↑↓ PgUp PgDn", "move in lists, scroll"),
    ("Enter", "open a history card"),
    ("Esc  q", "back"),
  ]

  static func draw(into grid: inout CellGrid, palette: Palette) {
    grid.drawChrome("Keys", row: 0, column: 1, style: palette.title)
    let keyWidth = keys.map(\.keys.count).max() ?? 0
    for (i, entry) in keys.enumerated() where 2 + i < grid.height - 1 {
      grid.drawChrome(entry.keys, row: 2 + i, column: 2, style: palette.key)
      grid.drawChrome(entry.action, row: 2 + i, column: 4 + keyWidth)
    }
  }
}
