import CommandSupport
import FeedCore
import Foundation
import TOMLKit

/// Reading `config.toml` (TOML, through TOMLKit and so Foundation): the full binary's part of
/// `Configuration`.
extension Configuration {
  /// The settings of the config file alone (a missing file is the defaults).
  static func read(file: String) throws(CLIError) -> Configuration {
    var config = Configuration()
    if let text = try? String(contentsOfFile: file, encoding: .utf8) {
      try config.apply(toml: text, file: file)
    }
    return config
  }

  /// Reads the config file, then applies the flags.
  static func load(file: String, flags: Globals) throws(CLIError) -> Configuration {
    var config = try read(file: file)
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
}
