import CardText

/// A strict reader of the TOML that `config.toml` uses: `key = value` lines with comments, the
/// values being strings, whole numbers and booleans, then optionally a `[keys]` table whose
/// values are strings or one-line arrays of strings, and `[analytics]` and `[hooks]` tables of
/// plain values (their keys read `analytics.` or `hooks.` and the key). Anything else, valid TOML or not (other
/// tables, arrays elsewhere, dates, floats, inline tables, dotted keys), is refused with the
/// line it is on, so a mistake is never half-read.
///
///     let entries = try ConfigReader.read(Array(text.utf8))
///     // [ConfigEntry(key: "undo-limit", value: .integer(5), line: 1)]
///     // after `[keys]`: [ConfigEntry(key: "keys.quit", value: .strings(["q"]), line: 3)]
public enum ConfigReader {
  /// The bytes of a config file: every setting in order; throws the first problem.
  public static func read(_ bytes: [UInt8]) throws(ConfigProblem) -> [ConfigEntry] {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigProblem(line: lineOfInvalidUTF8(bytes), message: "not valid UTF-8")
    }
    var entries: [ConfigEntry] = []
    var seen: [String: Int] = [:]
    /// The table the lines are in, and the line of each table's header.
    var table: String?
    var headers: [String: Int] = [:]
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      var scanner = LineScanner(line: line.utf8, number: offset + 1, table: table)
      switch try scanner.line() {
      case nil: continue
      case .table(let name):
        if let first = headers[name] {
          throw ConfigProblem(
            line: offset + 1, message: "[\(name)] is given twice (first on line \(first))")
        }
        headers[name] = offset + 1
        table = name
      case .entry(var entry):
        if let table { entry.key = table + "." + entry.key }
        if let first = seen.updateValue(entry.line, forKey: entry.key) {
          throw ConfigProblem(
            line: entry.line,
            message: "'\(LineScanner.shown(entry.key))' is set twice (first on line \(first))")
        }
        entries.append(entry)
      }
    }
    return entries
  }

  /// The key bindings' table: `action = "key"` or `action = ["key", "key"]`.
  public static let keysTable = "keys"
  /// The tables there are: key bindings, where analytics go (`[analytics]`), and commands run
  /// on events (`[hooks]`).
  /// Also a type's label over the one its deck gives (`[labels]`, `riddles = "Riddles"`), and
  /// the feeds subscribed to (`[feeds]`, `name = "https://..."`).
  public static let tables = [keysTable, "analytics", "hooks", "labels", "feeds"]

  private static func lineOfInvalidUTF8(_ bytes: [UInt8]) -> Int {
    var line = 1
    var start = 0
    for (i, byte) in bytes.enumerated() where byte == 0x0A {
      if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
      line += 1
      start = i + 1
    }
    return line
  }
}

/// One `key = value` of the config file and the line it is on. A key of the `[keys]` table is
/// named `keys.` and its key (`keys.quit`).
public struct ConfigEntry: Sendable, Hashable {
  public var key: String
  public var value: ConfigValue
  public var line: Int
}

/// A value of the config file.
public enum ConfigValue: Sendable, Hashable {
  case string(String)
  case integer(Int)
  case boolean(Bool)
  /// A one-line array of strings, read only in the `[keys]` table.
  case strings([String])

  /// The value as the command line would spell it.
  public var text: String {
    switch self {
    case .string(let s): s
    case .integer(let n): String(n)
    case .boolean(let b): b ? "true" : "false"
    case .strings(let list): list.joined(separator: ",")
    }
  }
}

/// What is wrong with the config file, and on which line.
public struct ConfigProblem: Error, Sendable, Hashable {
  public var line: Int
  public var message: String

  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }
}

/// What one line of the file holds, when not blank or a comment.
private enum ConfigLine {
  case entry(ConfigEntry)
  /// A table's header: `[keys]`, `[analytics]`.
  case table(String)
}

/// Reads one line: blank, a comment, the `[keys]` header, or `key = value` with an optional
/// comment after it.
private struct LineScanner {
  private let bytes: [UInt8]
  private let number: Int
  /// The table the line is in. After `[keys]`, a value may be an array of strings, and must
  /// be a string or one.
  private let table: String?
  private var position = 0

  init(line: Substring.UTF8View, number: Int, table: String?) {
    var bytes = Array(line)
    if bytes.last == 0x0D { bytes.removeLast() }
    self.bytes = bytes
    self.number = number
    self.table = table
  }

  mutating func line() throws(ConfigProblem) -> ConfigLine? {
    skipSpace()
    guard let first = peek, first != UInt8(ascii: "#") else { return nil }
    if first == UInt8(ascii: "[") { return .table(try readTableHeader()) }
    return .entry(try entry())
  }

  /// `[keys]`, `[analytics]` or `[hooks]`, spaces allowed inside the brackets, then nothing but
  /// a comment.
  private mutating func readTableHeader() throws(ConfigProblem) -> String {
    position += 1
    skipSpace()
    let start = position
    while let byte = peek, Self.isBareKey(byte) { position += 1 }
    let name = String(decoding: bytes[start..<position], as: UTF8.self)
    skipSpace()
    guard ConfigReader.tables.contains(name), consume(UInt8(ascii: "]")) else {
      throw problem(
        "tables other than [keys], [analytics], [hooks], [labels] and [feeds] are not settings "
          + "of ctfo; write "
          + "'key = value' lines before the first table")
    }
    skipSpace()
    if let rest = peek, rest != UInt8(ascii: "#") {
      throw problem("unexpected text after [\(name)]")
    }
    return name
  }

  private mutating func entry() throws(ConfigProblem) -> ConfigEntry {
    let key = try readKey()
    skipSpace()
    guard consume(UInt8(ascii: "=")) else {
      throw problem("expected '=' after '\(Self.shown(key))'")
    }
    skipSpace()
    let value = table == ConfigReader.keysTable ? try readKeyNames() : try readValue()
    skipSpace()
    if let rest = peek, rest != UInt8(ascii: "#") {
      throw problem("unexpected text after the value of '\(Self.shown(key))'")
    }
    return ConfigEntry(key: key, value: value, line: number)
  }

  private mutating func readKey() throws(ConfigProblem) -> String {
    if peek == UInt8(ascii: "\"") { return try readBasicString() }
    let start = position
    while let byte = peek, Self.isBareKey(byte) { position += 1 }
    guard position > start else { throw problem("expected a setting name") }
    if peek == UInt8(ascii: ".") { throw problem("dotted keys are not settings of ctfo") }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// A value of the `[keys]` table: a string, or a one-line array of strings.
  private mutating func readKeyNames() throws(ConfigProblem) -> ConfigValue {
    guard consume(UInt8(ascii: "[")) else {
      guard case .string(let name) = try readValue() else {
        throw problem("a key binding is a string or a list of strings, as [\"l\", \"Right\"]")
      }
      return .strings([name])
    }
    var names: [String] = []
    while true {
      skipSpace()
      if consume(UInt8(ascii: "]")) { return .strings(names) }
      guard peek == UInt8(ascii: "\"") || peek == UInt8(ascii: "'"),
        case .string(let name) = try readValue()
      else { throw problem("a list of keys holds quoted strings, as [\"l\", \"Right\"]") }
      names.append(name)
      skipSpace()
      if consume(UInt8(ascii: "]")) { return .strings(names) }
      guard consume(UInt8(ascii: ",")) else {
        throw problem("expected ',' or ']' in the list of keys (on one line)")
      }
    }
  }

  private mutating func readValue() throws(ConfigProblem) -> ConfigValue {
    switch peek {
    case UInt8(ascii: "\""):
      if bytes[position...].starts(with: #"""""#.utf8) {
        throw problem("multi-line strings are not supported")
      }
      return .string(try readBasicString())
    case UInt8(ascii: "'"): return .string(try readLiteralString())
    case nil: throw problem("missing value")
    default: return try readBareValue()
    }
  }

  private mutating func readBareValue() throws(ConfigProblem) -> ConfigValue {
    let start = position
    while let byte = peek, byte != UInt8(ascii: " "), byte != 0x09, byte != UInt8(ascii: "#") {
      position += 1
    }
    let word = String(decoding: bytes[start..<position], as: UTF8.self)
    switch word {
    case "true": return .boolean(true)
    case "false": return .boolean(false)
    default: break
    }
    guard let number = Self.integer(word) else {
      throw problem("'\(Self.shown(word))' is not a string, whole number or boolean (quote text)")
    }
    return .integer(number)
  }

  /// A TOML decimal integer: an optional sign, digits, single underscores between digits.
  private static func integer(_ word: String) -> Int? {
    var digits = Substring(word)
    if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
    guard let first = digits.first, let last = digits.last, first.isASCII, first.isNumber,
      last.isASCII, last.isNumber, !digits.contains("__"),
      !(first == "0" && digits.count > 1)
    else { return nil }
    guard digits.allSatisfy({ $0 == "_" || ($0.isASCII && $0.isNumber) }) else { return nil }
    return Int(word.filter { $0 != "_" })
  }

  private mutating func readBasicString() throws(ConfigProblem) -> String {
    position += 1
    var out: [UInt8] = []
    while let byte = peek {
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"): out += try readEscape()
      case 0x09: out.append(byte)
      case ..<0x20, 0x7F: throw problem("a control character inside a string")
      default: out.append(byte)
      }
    }
    throw problem("a string is not closed (missing \")")
  }

  private mutating func readEscape() throws(ConfigProblem) -> [UInt8] {
    guard let byte = peek else { throw problem("a string is not closed (missing \")") }
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): return [byte]
    case UInt8(ascii: "n"): return [0x0A]
    case UInt8(ascii: "t"): return [0x09]
    case UInt8(ascii: "r"): return [0x0D]
    case UInt8(ascii: "b"): return [0x08]
    case UInt8(ascii: "f"): return [0x0C]
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      let count = byte == UInt8(ascii: "u") ? 4 : 8
      guard position + count <= bytes.count,
        let code = UInt32(
          String(decoding: bytes[position..<position + count], as: UTF8.self), radix: 16),
        let scalar = Unicode.Scalar(code)
      else { throw problem("an invalid \\u escape") }
      position += count
      return Array(String(Character(scalar)).utf8)
    default:
      throw problem("an invalid escape '\\\(Self.shown(String(decoding: [byte], as: UTF8.self)))'")
    }
  }

  private mutating func readLiteralString() throws(ConfigProblem) -> String {
    position += 1
    let start = position
    while let byte = peek, byte != UInt8(ascii: "'") {
      guard byte >= 0x20 || byte == 0x09, byte != 0x7F else {
        throw problem("a control character inside a string")
      }
      position += 1
    }
    guard peek != nil else { throw problem("a string is not closed (missing ')") }
    defer { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func consume(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    position += 1
    return true
  }

  private mutating func skipSpace() {
    while let byte = peek, byte == UInt8(ascii: " ") || byte == 0x09 { position += 1 }
  }

  private func problem(_ message: String) -> ConfigProblem {
    ConfigProblem(line: number, message: message)
  }

  private static func isBareKey(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// Text from the file, made safe to print in a message: controls (C0, DEL, C1) shown as `?`,
  /// what else must not reach a terminal (bidi controls, ZWJ) removed, cut short.
  fileprivate static func shown(_ text: String) -> String {
    let visible = text.unicodeScalars.map { scalar -> Unicode.Scalar in
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : scalar
    }
    let safe = Sanitizer.sanitizeLine(String(String.UnicodeScalarView(visible)))
    return safe.count > 40 ? String(safe.prefix(40)) + "…" : safe
  }
}
