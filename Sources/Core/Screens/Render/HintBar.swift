import App
import CardText
import FeedCore

/// The bottom row: the keys of the screen, or the transient message when there is one.
///
/// When not every hint fits, hints are dropped from the end, but the essential ones at the end
/// (quit and help, or the way back) are always kept.
enum HintBar {
  /// A key and what it does.
  typealias Hint = (key: String, action: String)

  /// A screen's hints: all of them, a fuller form drawn instead when it fits whole, and how
  /// many at the end are never dropped.
  struct Hints {
    var all: [Hint]
    var fuller: [Hint]? = nil
    var essential = 1
  }

  /// Draws the hints, or the message; `mark` ("offline") goes quietly at the right end, and
  /// the user's `status` (untrusted, cut to `statusWidth`) left of it, each when there is room
  /// for it beside the essential hints.
  static func draw(
    _ hints: Hints, message: String?, mark: String? = nil, status: String? = nil,
    into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 1
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    if let message {
      grid.draw(" " + Untrusted.line(message) + " ", row: row, column: 0, style: palette.message)
      return
    }
    var room = grid.width - 1
    if let mark, cells(hints.all.suffix(hints.essential)) + mark.count + 3 <= room {
      room -= mark.count + 2
      grid.drawChrome(mark, row: row, column: grid.width - mark.count - 1, style: palette.quiet)
    }
    let essential = cells(hints.all.suffix(hints.essential))
    if let status {
      let shown = CardLayout.layout(
        title: nil, body: Untrusted.line(status), width: statusWidth, height: 1
      ).lines.first ?? ""
      let width = DisplayWidth.of(shown)
      if width > 0, essential + width + 3 <= room {
        grid.draw(shown, row: row, column: room - width, style: palette.quiet)
        room -= width + 2
      }
    }
    let shown =
      hints.fuller.flatMap { cells($0[...]) <= room ? $0 : nil }
      ?? fitting(hints.all, width: room, essential: hints.essential)
    var column = 1
    for hint in shown {
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

  /// The hints that fit in `width` columns: a prefix, then the `essential` last hints.
  static func fitting(_ hints: [Hint], width: Int, essential: Int = 1) -> [Hint] {
    let last = hints.suffix(essential)
    var kept: [Hint] = []
    var used = cells(last)
    for hint in hints.dropLast(essential) {
      guard used + 2 + cells(hint) <= width else { break }
      kept.append(hint)
      used += 2 + cells(hint)
    }
    return kept + last
  }

  private static func cells(_ hint: Hint) -> Int { hint.key.count + 1 + hint.action.count }

  /// The cells `hints` take, two between each.
  private static func cells(_ hints: ArraySlice<Hint>) -> Int {
    hints.reduce(0) { $0 + cells($1) } + 2 * max(hints.count - 1, 0)
  }

  /// The feed's hints: the first key of each action; quit and help always, and where the row
  /// is wide enough, what each reaction means.
  static func feed(_ keys: KeyBindings) -> Hints {
    let actions: [(KeyAction, String)] = [
      (.swipeRight, "TFU"), (.swipeLeft, "TIFB"), (.swipeUp, "CTFO"), (.history, "history"),
      (.undo, "undo"), (.settings, "settings"), (.quit, "quit"), (.help, "help"),
    ]
    let hints = actions.map { (key: first(keys, $0), action: $1) }
    let explained = hints.map { hint in
      (
        key: hint.key,
        action: Reaction(rawValue: hint.action).map { "\($0.rawValue) (\($0.meaning))" }
          ?? hint.action
      )
    }
    return Hints(all: hints, fuller: explained, essential: 2)
  }

  /// The swipes of the feed's card, for its whole view (↑ scrolls there).
  static func swipes(_ keys: KeyBindings) -> [Hint] {
    [
      (first(keys, .swipeRight), Reaction.tfu.rawValue),
      (first(keys, .swipeLeft), Reaction.tifb.rawValue),
    ]
  }

  /// The history view's hints; Esc lists every card again once a search found some.
  static func history(_ keys: KeyBindings, found: Bool) -> [Hint] {
    [
      ("↑↓", "move"), ("Enter", "open"), (first(keys, .search), "search"),
      (first(keys, .filter), "filter"), (first(keys, .undo), "undo to"),
      (first(keys, .bringBack), "bring back"),
      ("Esc", found ? "all cards" : "back"),
    ]
  }

  /// The whole card's hints, with the key that opens its link when it has one and the swipes
  /// when it is the feed's card.
  static func fullCard(_ keys: KeyBindings, link: Bool, swipes canSwipe: Bool) -> [Hint] {
    let open: [Hint] = link ? [(first(keys, .openLink), "open link")] : []
    return [("↑↓", "scroll")] + (canSwipe ? swipes(keys) : []) + open + [("Esc", "back")]
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
