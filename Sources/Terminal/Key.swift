/// A decoded key press.
public enum Key: Sendable, Hashable {
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, space, tab, escape, backspace
  /// A printable character ("q", "u", "?", "h", ...).
  case character(Character)
  /// Ctrl plus a letter, lower case ("c" for Ctrl-C).
  case control(Character)
  case unknown
}

/// What the run loop wakes up for.
public enum InputEvent: Sendable, Hashable {
  case key(Key)
  /// The terminal changed size; the new size is in `TerminalSession.size`.
  case resize
  /// The wake-up pipe was written: a card became ready (or other background news).
  case wake
  /// SIGTERM, SIGHUP or SIGINT: save and quit.
  case terminate
  /// Resumed after Ctrl-Z: redraw everything.
  case resumed
}

/// Why the interactive app cannot start.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
  case notATerminal
  case noTerm
  case unusableTerm(String)
  case notUTF8(String)

  public var description: String {
    switch self {
    case .notATerminal:
      "ctfo: standard input and output must be a terminal for the interactive app; try 'ctfo next'"
    case .noTerm: "ctfo: TERM is not set, so the terminal cannot be driven; try 'ctfo next'"
    case .unusableTerm(let t):
      "ctfo: the terminal type '\(t)' is unknown or unusable; try TERM=xterm-256color or 'ctfo next'"
    case .notUTF8(let l):
      "ctfo: the locale '\(l)' is not UTF-8; set LANG=C.UTF-8 or try 'ctfo next'"
    }
  }
}
