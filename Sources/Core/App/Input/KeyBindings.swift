import CardText

/// What a key can be bound to in config.toml's `[keys]` table, by the name the table gives it:
/// the actions of the help screen.
public enum KeyAction: String, CaseIterable, Sendable {
  case swipeRight = "swipe-right"
  case swipeLeft = "swipe-left"
  case swipeUp = "swipe-up"
  case history
  case open
  case undo
  case settings
  case help
  case quit
  /// In the whole card: open its link.
  case openLink = "open-link"
  /// In the history view: open the search prompt.
  case search
  /// In the history view: list the next reaction's cards (all, CTFO, TFU, TIFB, none).
  case filter
  /// On the feed: pull from the server now.
  case pull
  /// On the feed: dismiss the server's notification.
  case dismiss
  /// On the feed and in the whole card: copy the card to the clipboard (OSC 52).
  case copy
  /// In the history view: deal the chosen card next, its history row left as it is.
  case bringBack = "bring-back"
  /// On the feed: the reader's stats in charts.
  case stats
}

/// Which keys do what: the defaults, changed by config.toml's `[keys]` table. Each key does
/// one thing; Ctrl-C always quits and cannot be bound. List moves (arrows, `j` `k`, pages)
/// and the way back (`Esc`, `q`) on the other screens stay as they are.
///
///     let keys = try KeyBindings(configured: [("swipe-right", ["l", "Right"], 2)])
///     keys.action(for: .character("l"))  // .swipeRight
///     keys.keys(for: .quit)  // [.character("q")]
public struct KeyBindings: Sendable, Hashable {
  private var byAction: [KeyAction: [Key]]

  /// The keys of ARCHITECTURE.md: arrows and their vi mirrors, and one letter per action.
  public static let standard = KeyBindings(byAction: [
    .swipeRight: [.right, .character("l")], .swipeLeft: [.left, .character("h")],
    .swipeUp: [.up, .character("k")], .history: [.down, .character("j")],
    .open: [.enter, .space], .undo: [.character("u"), .backspace],
    .settings: [.character("s")], .help: [.character("?")], .quit: [.character("q")],
    .openLink: [.character("o")], .search: [.character("/")], .filter: [.tab],
    .pull: [.character("r")],
    .dismiss: [.character("c")], .copy: [.character("y")], .bringBack: [.character("b")],
    .stats: [.character("i")],
  ])

  private init(byAction: [KeyAction: [Key]]) {
    self.byAction = byAction
  }

  /// The defaults with each configured action's keys in place of its own; throws the first
  /// unknown action or key name, or a key bound to two actions, with its line.
  public init(configured: [(action: String, keys: [String], line: Int)]) throws(KeyBindingProblem) {
    var byAction = Self.standard.byAction
    var lines: [KeyAction: Int] = [:]
    for entry in configured {
      guard let action = KeyAction(rawValue: entry.action) else {
        throw KeyBindingProblem(
          line: entry.line,
          message: "unknown action '\(Self.shown(entry.action))'; the actions are "
            + KeyAction.allCases.map(\.rawValue).joined(separator: ", "))
      }
      byAction[action] = try Self.keys(entry.keys, of: action, line: entry.line)
      lines[action] = entry.line
    }
    self.byAction = byAction
    try checkEachKeyDoesOneThing(lines: lines)
  }

  /// The keys bound to `action`, the first being the one the hint bar shows.
  public func keys(for action: KeyAction) -> [Key] { byAction[action] ?? [] }

  /// The action `key` is bound to, if any.
  public func action(for key: Key) -> KeyAction? {
    KeyAction.allCases.first { byAction[$0]?.contains(key) == true }
  }

  private static func keys(
    _ names: [String], of action: KeyAction, line: Int
  ) throws(KeyBindingProblem) -> [Key] {
    guard !names.isEmpty else {
      throw KeyBindingProblem(line: line, message: "\(action.rawValue) needs at least one key")
    }
    var keys: [Key] = []
    for name in names {
      let key = try Key(configName: name, line: line)
      guard !keys.contains(key) else {
        throw KeyBindingProblem(
          line: line, message: "'\(Self.shown(name))' is given twice for \(action.rawValue)")
      }
      keys.append(key)
    }
    return keys
  }

  /// Walks the actions not configured, then the configured ones in the order of their lines,
  /// so a clash is reported on the line that made it.
  private func checkEachKeyDoesOneThing(lines: [KeyAction: Int]) throws(KeyBindingProblem) {
    let order = KeyAction.allCases.sorted { (lines[$0] ?? 0) < (lines[$1] ?? 0) }
    var owners: [Key: KeyAction] = [:]
    for action in order {
      for key in keys(for: action) {
        guard let other = owners.updateValue(action, forKey: key) else { continue }
        let how = lines[other] == nil ? " by default; give it other keys in [keys]" : ""
        throw KeyBindingProblem(
          line: lines[action] ?? 0,
          message: "'\(key.configName)' is bound to \(other.rawValue) too\(how)")
      }
    }
  }

  /// Text from the file, safe to print in a message and cut short.
  static func shown(_ text: String) -> String {
    let safe = Sanitizer.sanitizeLine(text)
    return safe.count > 40 ? String(safe.prefix(40)) + "…" : safe
  }
}

/// A binding config.toml's `[keys]` table cannot have, and its line.
public struct KeyBindingProblem: Error, Sendable, Hashable {
  public var line: Int
  public var message: String
}
