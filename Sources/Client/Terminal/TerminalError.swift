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
