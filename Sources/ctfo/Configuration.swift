import FeedCore
import Foundation
import TOMLKit

/// The settings of `config.toml`, overridden by the command line's flags.
///
///     undo-limit = 5
///     on-replace = "clear-tombstones"
///     on-launch = "restore"
///     lookahead = 5
struct Configuration: Equatable {
  var undo = UndoConfiguration()
  var lookahead = 5

  static let keys = ["undo-limit", "on-replace", "on-launch", "lookahead"]

  /// Reads the config file (a missing file is the defaults), then applies the flags.
  static func load(file: String, flags: Globals) throws(CLIError) -> Configuration {
    var config = Configuration()
    if let text = try? String(contentsOfFile: file, encoding: .utf8) {
      try config.apply(toml: text, file: file)
    }
    try config.apply(flags: flags)
    return config
  }

  mutating func apply(toml text: String, file: String) throws(CLIError) {
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw CLIError("\(file):\(error.source.begin.line): \(error.description)")
    } catch {
      throw CLIError("\(file): \(error)")
    }
    for key in table.keys {
      guard Self.keys.contains(key) else {
        throw CLIError(
          "\(file): unknown setting '\(key)'; the settings are \(Self.keys.joined(separator: ", "))")
      }
      let value = table[key]!
      let text = value.string ?? value.int.map(String.init) ?? "\(value)"
      try set(key, to: text, in: file)
    }
  }

  mutating func apply(flags: Globals) throws(CLIError) {
    let given: [(String, String?)] = [
      ("undo-limit", flags.undoLimit.map(String.init)), ("on-replace", flags.onReplace),
      ("on-launch", flags.onLaunch), ("lookahead", flags.lookahead.map(String.init)),
    ]
    for case (let key, let value?) in given { try set(key, to: value, in: "--\(key)") }
  }

  /// Sets one setting from its text; `origin` names where it came from in the error.
  mutating func set(_ key: String, to value: String, in origin: String) throws(CLIError) {
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
struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
