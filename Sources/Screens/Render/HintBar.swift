import App
import CardText

/// The bottom row: the keys of the screen, or the transient message when there is one.
///
/// When not every hint fits, hints are dropped from the end, but the last one (help, or the way
/// back) is always kept.
enum HintBar {
  /// A key and what it does.
  typealias Hint = (key: String, action: String)

  /// Draws the hints, or the message; `mark` ("offline") goes quietly at the right end, and
  /// the user's `status` (untrusted, cut to `statusWidth`) left of it, each when there is room
  /// for it beside the help hint.
  static func draw(
    _ hints: [Hint], message: String?, mark: String? = nil, status: String? = nil,
    into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 1
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    if let message {
      grid.draw(" " + Untrusted.line(message) + " ", row: row, column: 0, style: palette.message)
      return
    }
    var room = grid.width - 1
    if let mark, let last = hints.last, cells(last) + mark.count + 3 <= room {
      room -= mark.count + 2
      grid.drawChrome(mark, row: row, column: grid.width - mark.count - 1, style: palette.quiet)
    }
    if let status, let last = hints.last {
      let shown = CardLayout.layout(
        title: nil, body: Untrusted.line(status), width: statusWidth, height: 1
      ).lines.first ?? ""
      let width = DisplayWidth.of(shown)
      if width > 0, cells(last) + width + 3 <= room {
        grid.draw(shown, row: row, column: room - width, style: palette.quiet)
        room -= width + 2
      }
    }
    var column = 1
    for hint in fitting(hints, width: room) {
      column = grid.drawChrome(hint.key, row: row, column: column, style: palette.key)
      column = grid.drawChrome(" " + hint.action, row: row, column: column, style: palette.quiet)
      column += 2
    }
  }

  /// The search prompt of the history view: `/`, the text typed (its end when it is too long
  /// for the row) and a cursor, then how to search or cancel.
  static func drawPrompt(_ text: String, into grid: inout CellGrid, palette: Palette) {
    let row = grid.height - 1
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    let keys = "  Enter search  Esc cancel"
    let room = max(grid.width - 3 - keys.count, 1)
    var shown = Untrusted.line(text)
    while DisplayWidth.of(shown) > room - 1 { shown.removeFirst() }
    var column = grid.drawChrome("/", row: row, column: 1, style: palette.key)
    column = grid.draw(shown, row: row, column: column)
    column = grid.draw(" ", row: row, column: column, style: palette.selected)
    grid.drawChrome(keys, row: row, column: column, style: palette.quiet)
  }

  /// The most cells the user's status takes.
  static let statusWidth = 20

  /// The hints that fit in `width` columns: a prefix, then the last hint.
  static func fitting(_ hints: [Hint], width: Int) -> [Hint] {
    guard let last = hints.last else { return [] }
    var kept: [Hint] = []
    var used = cells(last)
    for hint in hints.dropLast() {
      guard used + 2 + cells(hint) <= width else { break }
      kept.append(hint)
      used += 2 + cells(hint)
    }
    return kept + [last]
  }

  private static func cells(_ hint: Hint) -> Int { hint.key.count + 1 + hint.action.count }

  /// The feed's hints: the first key of each action.
  static func feed(_ keys: KeyBindings) -> [Hint] {
    let actions: [(KeyAction, String)] = [
      (.swipeRight, "TFU"), (.swipeLeft, "TIFB"), (.swipeUp, "CTFO"), (.history, "history"),
      (.undo, "undo"), (.settings, "settings"), (.quit, "quit"), (.help, "help"),
    ]
    return actions.map { (first(keys, $0), $1) }
  }

  /// The history view's hints; Esc lists every card again once a search found some.
  static func history(_ keys: KeyBindings, found: Bool) -> [Hint] {
    [
      ("↑↓", "move"), ("Enter", "open"), (first(keys, .search), "search"),
      ("Esc", found ? "all cards" : "back"),
    ]
  }

  /// The whole card's hints, with the key that opens its link when it has one.
  static func fullCard(_ keys: KeyBindings, link: Bool) -> [Hint] {
    let open: [Hint] = link ? [(first(keys, .openLink), "open link")] : []
    return [("↑↓", "scroll")] + open + [("Esc", "back")]
  }

  private static func first(_ keys: KeyBindings, _ action: KeyAction) -> String {
    keys.keys(for: action).first?.label ?? ""
  }

  static let settings: [Hint] = [("↑↓", "move"), ("Space", "toggle"), ("Esc", "back")]
  static let help: [Hint] = [("↑↓", "scroll"), ("Esc", "back")]
  static let confirm: [Hint] = [("y", "yes"), ("n", "no")]

  /// The server's notification on the row above the hint bar, with the key that dismisses it.
  static func drawNotice(
    _ notice: ServerLine.Notice, keys: KeyBindings, into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 2
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    let dismiss = "  \(first(keys, .dismiss)) dismiss"
    let room = max(grid.width - 2 - dismiss.count, 1)
    let text = Untrusted.line(notice.text)
    let shown = CardLayout.layout(title: nil, body: text, width: room, height: 1).lines.first ?? ""
    let column = grid.draw(" " + shown, row: row, column: 0, style: palette.message)
    grid.drawChrome(dismiss, row: row, column: column, style: palette.quiet)
  }
}
