import App
import CardText
import FeedCore

/// The bottom row: the keys of the screen, or the transient message when there is one.
///
/// When not every hint fits, hints are dropped from the end, but the essential ones at the end
/// (quit and help, or the way back) are always kept.
enum HintBar {
  /// A key and what it does; `key` is what a click on it presses (nil for "↑↓").
  struct Hint: Hashable {
    var label: String
    var action: String
    var key: Key?

    init(_ label: String, _ action: String, key: Key? = nil) {
      self.label = label
      self.action = action
      self.key = key
    }

    /// The cells it takes.
    var width: Int { label.count + 1 + action.count }
  }

  /// A screen's hints: all of them, a fuller form drawn instead when it fits whole, and how
  /// many at the end are never dropped.
  struct Hints {
    var all: [Hint]
    var fuller: [Hint]? = nil
    var essential = 1
  }

  /// What the row holds and where: the hints from their first column, the user's status and
  /// the quiet mark.
  struct Placed {
    var hints: [(column: Int, hint: Hint)] = []
    var status: (column: Int, text: String)?
    var mark: (column: Int, text: String)?
  }

  /// Draws the hints, or the message (ended by `cut` when it does not fit); `mark`
  /// ("offline") goes quietly at the right end, and the user's `status` (untrusted, cut to
  /// `statusWidth`) left of it, each when there is room for it beside the essential hints.
  static func draw(
    _ hints: Hints, message: String?, mark: String? = nil, status: String? = nil,
    cut: TruncationMark = .ellipsis, into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 1
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    if let message {
      let end = grid.drawClipped(
        " " + Untrusted.line(message), row: row, column: 0, style: palette.message,
        limit: grid.width - 1, mark: cut)
      grid.draw(" ", row: row, column: end, style: palette.message)
      return
    }
    let placed = place(hints, mark: mark, status: status, width: grid.width)
    if let (column, text) = placed.mark {
      grid.drawChrome(text, row: row, column: column, style: palette.quiet)
    }
    if let (column, text) = placed.status {
      grid.draw(text, row: row, column: column, style: palette.quiet)
    }
    for (column, hint) in placed.hints {
      let next = grid.drawChrome(hint.label, row: row, column: column, style: palette.key)
      grid.drawChrome(" " + hint.action, row: row, column: next, style: palette.quiet)
    }
  }

  /// Lays the row out for a screen `width` columns wide: what `draw` draws, and what a click
  /// on it hits.
  static func place(_ hints: Hints, mark: String?, status: String?, width: Int) -> Placed {
    var placed = Placed()
    var room = width - 1
    if let mark, cells(hints.all.suffix(hints.essential)) + mark.count + 3 <= room {
      room -= mark.count + 2
      placed.mark = (width - mark.count - 1, mark)
    }
    let essential = cells(hints.all.suffix(hints.essential))
    if let status {
      let shown = CardLayout.layout(
        title: nil, body: Untrusted.line(status), width: statusWidth, height: 1
      ).lines.first ?? ""
      let width = DisplayWidth.of(shown)
      if width > 0, essential + width + 3 <= room {
        placed.status = (room - width, shown)
        room -= width + 2
      }
    }
    let shown =
      hints.fuller.flatMap { cells($0[...]) <= room ? $0 : nil }
      ?? fitting(hints.all, width: room, essential: hints.essential)
    var column = 1
    for hint in shown {
      placed.hints.append((column, hint))
      column += hint.width + 2
    }
    return placed
  }

  /// The key of the hint drawn over `column`, if one is.
  static func key(at column: Int, of hints: Hints, mark: String?, status: String?, width: Int)
    -> Key?
  {
    place(hints, mark: mark, status: status, width: width).hints.first {
      ($0.column..<($0.column + $0.hint.width)).contains(column)
    }?.hint.key
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
      guard used + 2 + hint.width <= width else { break }
      kept.append(hint)
      used += 2 + hint.width
    }
    return kept + last
  }

  /// The cells `hints` take, two between each.
  private static func cells(_ hints: ArraySlice<Hint>) -> Int {
    hints.reduce(0) { $0 + $1.width } + 2 * max(hints.count - 1, 0)
  }

  /// The feed's hints: the first key of each action; quit and help always, and where the row
  /// is wide enough, what each reaction means.
  static func feed(_ keys: KeyBindings) -> Hints {
    let actions: [(KeyAction, String)] = [
      (.swipeRight, "TFU"), (.swipeLeft, "TIFB"), (.swipeUp, "CTFO"), (.history, "history"),
      (.undo, "undo"), (.settings, "settings"), (.quit, "quit"), (.help, "help"),
    ]
    let hints = actions.map { bound(keys, $0, $1) }
    let explained = hints.map { hint in
      var hint = hint
      if let reaction = Reaction(rawValue: hint.action) {
        hint.action = "\(reaction.rawValue) (\(reaction.meaning))"
      }
      return hint
    }
    return Hints(all: hints, fuller: explained, essential: 2)
  }

  /// The swipes of the feed's card, for its whole view (↑ scrolls there).
  static func swipes(_ keys: KeyBindings) -> [Hint] {
    [
      bound(keys, .swipeRight, Reaction.tfu.rawValue),
      bound(keys, .swipeLeft, Reaction.tifb.rawValue),
    ]
  }

  /// The history view's hints; Esc lists every card again once a search found some.
  static func history(_ keys: KeyBindings, found: Bool) -> [Hint] {
    [
      Hint("↑↓", "move"), Hint("Enter", "open", key: .enter), bound(keys, .search, "search"),
      bound(keys, .filter, "filter"), bound(keys, .undo, "undo to"),
      bound(keys, .bringBack, "bring back"),
      Hint("Esc", found ? "all cards" : "back", key: .escape),
    ]
  }

  /// The whole card's hints, with the key that opens its link when it has one and the swipes
  /// when it is the feed's card.
  static func fullCard(_ keys: KeyBindings, link: Bool, swipes canSwipe: Bool) -> [Hint] {
    let open = link ? [bound(keys, .openLink, "open link")] : []
    return [Hint("↑↓", "scroll")] + (canSwipe ? swipes(keys) : []) + open
      + [Hint("Esc", "back", key: .escape)]
  }

  /// The hint of `action` by its first bound key.
  private static func bound(_ keys: KeyBindings, _ action: KeyAction, _ text: String) -> Hint {
    let key = keys.keys(for: action).first
    return Hint(key?.label ?? "", text, key: key)
  }

  static let settings = [
    Hint("↑↓", "move"), Hint("Space", "toggle", key: .space), Hint("Esc", "back", key: .escape),
  ]
  static let help = [Hint("↑↓", "scroll"), Hint("Esc", "back", key: .escape)]
  static let confirm = [
    Hint("y", "yes", key: .character("y")), Hint("n", "no", key: .character("n")),
  ]

  /// The server's notification on the row above the hint bar, with the key that dismisses it.
  static func drawNotice(
    _ notice: ServerLine.Notice, keys: KeyBindings, into grid: inout CellGrid, palette: Palette
  ) {
    let row = grid.height - 2
    grid.clear(row: row, column: 0, width: grid.width, height: 1)
    let dismiss = "  \(keys.keys(for: .dismiss).first?.label ?? "") dismiss"
    let room = max(grid.width - 2 - dismiss.count, 1)
    let text = Untrusted.line(notice.text)
    let shown = CardLayout.layout(title: nil, body: text, width: room, height: 1).lines.first ?? ""
    let column = grid.draw(" " + shown, row: row, column: 0, style: palette.message)
    grid.drawChrome(dismiss, row: row, column: column, style: palette.quiet)
  }
}
