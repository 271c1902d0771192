/// The names of keys in config.toml's `[keys]` table, and how the help and the hint bar show
/// them.
extension Key {
  /// The keys with a name longer than one character, as config.toml spells them (any case).
  static let names: [(name: String, key: Key)] = [
    ("Right", .right), ("Left", .left), ("Up", .up), ("Down", .down), ("Enter", .enter),
    ("Space", .space), ("Backspace", .backspace), ("Esc", .escape), ("Home", .home),
    ("End", .end), ("PageUp", .pageUp), ("PageDown", .pageDown), ("Tab", .tab),
  ]

  /// Control keys that arrive as another key, or that the terminal keeps.
  private static let unbindableControls: [Character: String] = [
    "c": "Ctrl-C always quits", "z": "Ctrl-Z suspends the app", "h": "it arrives as Backspace",
    "i": "it arrives as Tab", "j": "it arrives as Enter", "m": "it arrives as Enter",
  ]

  /// The key config.toml names `name`: one character (not a space or control), `C-x` for Ctrl
  /// and a letter, or one of `names`; throws why not, with `line`.
  init(configName name: String, line: Int) throws(KeyBindingProblem) {
    if let named = Self.names.first(where: { $0.name.lowercased() == name.lowercased() }) {
      self = named.key
    } else if name.unicodeScalars.count == 1, let scalar = name.unicodeScalars.first,
      !scalar.properties.isWhitespace, scalar.value >= 0x20, !(0x7F...0x9F).contains(scalar.value)
    {
      self = .character(Character(scalar))
    } else if name.count == 3, name.lowercased().hasPrefix("c-"), let letter = name.last,
      letter.isASCII, letter.isLetter
    {
      let lower = Character(letter.lowercased())
      if let why = Self.unbindableControls[lower] {
        throw KeyBindingProblem(line: line, message: "'\(name)' cannot be bound: \(why)")
      }
      self = .control(lower)
    } else {
      throw KeyBindingProblem(
        line: line,
        message: "unknown key '\(KeyBindings.shown(name))'; a key is one character, C-x for "
          + "Ctrl and a letter, or one of " + Self.names.map(\.name).joined(separator: ", "))
    }
  }

  /// The name config.toml gives the key.
  var configName: String {
    switch self {
    case .character(let character): String(character)
    case .control(let letter): "C-\(letter)"
    default: Self.names.first { $0.key == self }?.name ?? "?"
    }
  }

  /// How the help screen and the hint bar show the key: arrows as arrows, `PgUp`, `Ctrl-X`.
  public var label: String {
    switch self {
    case .right: "→"
    case .left: "←"
    case .up: "↑"
    case .down: "↓"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .control(let letter): "Ctrl-\(letter.uppercased())"
    default: configName
    }
  }
}
