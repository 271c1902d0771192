import CardText

/// Every key of the app.
enum HelpScreen {
  static let keys: [(keys: String, action: String)] = [
    ("→  l", "swipe right: TFU"),
    ("←  h", "swipe left: TIFB"),
    ("↑  k", "swipe up: CTFO"),
    ("↓  j", "history of the cards shown"),
    ("Enter Space", "the whole card, when it was cut or has more"),
    ("u  Backspace", "undo the last swipe"),
    ("s", "settings: the card types to show"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
    ("", ""),
    ("↑↓ PgUp PgDn", "move in history, settings, the whole card"),
    ("Enter", "open a card from history"),
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
