import FeedCore

/// The settings of `config.toml`, overridden by the command line's flags.
///
///     undo-limit = 5
///     on-replace = "clear-tombstones"
///     on-launch = "restore"
///     lookahead = 5
///
/// Reading the file (TOML) is `ctfo-full`'s; what is here runs in the quick path too.
public struct Configuration: Equatable, Sendable {
  public var undo = UndoConfiguration()
  public var lookahead = 5

  public static let keys = ["undo-limit", "on-replace", "on-launch", "lookahead"]

  public init() {}

  public mutating func apply(flags: Globals) throws(CLIError) {
    let given: [(String, String?)] = [
      ("undo-limit", flags.undoLimit.map(String.init)), ("on-replace", flags.onReplace),
      ("on-launch", flags.onLaunch), ("lookahead", flags.lookahead.map(String.init)),
    ]
    for case (let key, let value?) in given { try set(key, to: value, in: "--\(key)") }
  }

  /// Sets one setting from its text; `origin` names where it came from in the error.
  public mutating func set(_ key: String, to value: String, in origin: String) throws(CLIError) {
    func bad(_ allowed: String) -> CLIError {
      CLIError("\(origin): \(key) must be \(allowed) (got '\(value)')")
    }
    switch key {
    case "undo-limit":
      guard let n = Int(value), (0...1000).contains(n) else { throw bad("a whole number from 0 to 1000") }
      undo.limit = n
    case "lookahead":
      guard let n = Int(value), (1...100).contains(n) else { throw bad("a whole number from 1 to 100") }
      lookahead = n
    case "on-replace":
      guard let s = ReplacementStrategy(rawValue: value) else {
        throw bad("one of " + ReplacementStrategy.allCases.map(\.rawValue).joined(separator: ", "))
      }
      undo.onReplace = s
    case "on-launch":
      guard let m = RestoreMode(rawValue: value) else {
        throw bad("one of " + RestoreMode.allCases.map(\.rawValue).joined(separator: ", "))
      }
      undo.onLaunch = m
    default:
      throw CLIError("\(origin): unknown setting '\(key)'")
    }
  }
}

/// An error the command line reports as one line on stderr, with a non-zero exit.
public struct CLIError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
