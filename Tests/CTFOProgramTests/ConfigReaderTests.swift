import CTFOProgram
import FeedCore
import Foundation
import TestFixtures
import Testing

/// The config file's reader takes exactly the TOML ctfo uses and words every refusal with its
/// line.
@Suite struct ConfigReaderTests {
  private func read(_ text: String) throws(ConfigProblem) -> [ConfigEntry] {
    try ConfigReader.read(Array(text.utf8))
  }

  private func problem(_ text: String) -> ConfigProblem? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func theDocumentedFileIsRead() throws {
    let text = """
      # ctfo settings
      undo-limit = 5                  # swipes that can be undone
      on-replace = "clear-tombstones"
      on-launch = 'restore'

      lookahead = +1_0
      "quoted" = true\r
      """
    let entries = try read(text)
    #expect(entries.map(\.key) == ["undo-limit", "on-replace", "on-launch", "lookahead", "quoted"])
    #expect(
      entries.map(\.value) == [
        .integer(5), .string("clear-tombstones"), .string("restore"), .integer(10), .boolean(true),
      ])
    #expect(entries.map(\.line) == [2, 3, 4, 6, 7])
  }

  /// The one table: after `[keys]` every line binds an action to a key or a list of keys.
  @Test func theKeysTableIsRead() throws {
    let text = """
      undo-limit = 3
      [ keys ]  # bindings
      swipe-right = ["l", 'Right',]
      quit = "q"
      help = []
      """
    let entries = try read(text)
    #expect(entries.map(\.key) == ["undo-limit", "keys.swipe-right", "keys.quit", "keys.help"])
    #expect(
      entries.map(\.value) == [
        .integer(3), .strings(["l", "Right"]), .strings(["q"]), .strings([]),
      ])
    #expect(entries.map(\.line) == [1, 3, 4, 5])
  }

  /// The reader hands the table's lines to the configuration in order, for the app to check.
  @Test func theConfigurationKeepsTheKeysAsWritten() throws {
    let folder = try TemporaryFolder("ctfo-config")
    let path = folder.path("config.toml")
    try "lookahead = 4\n[keys]\nundo = [\"u\", \"z\"]\n".write(
      toFile: path, atomically: false, encoding: .utf8)
    let config = try Configuration.read(file: path)
    #expect(config.lookahead == 4)
    #expect(config.keyBindings == [KeyBindingEntry(action: "undo", keys: ["u", "z"], line: 3)])
  }

  /// A tab is the one control either kind of string may hold as it is.
  @Test func aTabIsTheOneControlInAString() throws {
    let entries = try read("a = 'x\ty'\nb = \"x\ty\"")
    #expect(entries.map(\.value) == [.string("x\ty"), .string("x\ty")])
  }

  @Test func escapesAreDecoded() throws {
    #expect(try read(#"a = "x\"y\\z\u00e9\t""#).first?.value == .string("x\"y\\zé\t"))
  }

  @Test(arguments: [
    ("[.]", 1, "tables"), ("[[[", 1, "tables"), ("[[[a]]]", 1, "tables"),
    ("[other]\n", 1, "tables"),
    ("[[keys]]", 1, "tables"), ("[keys] x", 1, "unexpected text"), ("[keys]\n[keys]", 2, "twice"),
    ("[keys]\na = 1", 2, "a string or a list"), ("[keys]\na = [1]", 2, "quoted strings"),
    ("[keys]\na = [\"x\" \"y\"]", 2, "expected ','"), ("[keys]\na = [\"x\"", 2, "expected ','"),
    ("[keys]\na = \"q\"\na = \"x\"", 3, "set twice"), ("a = [\"x\"]", 1, "not a string"),
    ("a = 1\nb", 2, "expected '='"), ("a.b = 1", 1, "dotted"), ("= 1", 1, "setting name"),
    ("a =", 1, "missing value"), ("a = 1 2", 1, "after the value"), ("a = 1.5", 1, "not a string"),
    ("a = [1]", 1, "not a string"), ("a = {b = 1}", 1, "not a string"),
    ("a = 01", 1, "not a string"),
    ("a = 1__0", 1, "not a string"), ("a = \"open", 1, "not closed"),
    ("a = 'open", 1, "not closed"),
    ("a = \"\\q\"", 1, "invalid escape"), ("a = \"\\ud800\"", 1, "invalid \\u"),
    ("a = \"\u{0}\"", 1, "control"), ("a = 1\u{0}", 1, "not a string"),
    ("a = \"x\u{7F}\"", 1, "control"), ("a = 'x\u{7F}'", 1, "control"),
    ("a = '\u{1B}[31m'", 1, "control"), ("a = 'x\u{1F}'", 1, "control"),
    ("[keys]\na = ['\u{7F}']", 2, "control"), ("a = 'x\ry'", 1, "control"),
    ("a = \"\"\"x\"\"\"", 1, "multi-line"), ("a = 1\na = 2", 2, "set twice"),
    ("a = 99999999999999999999", 1, "not a string"),
  ])
  func anythingElseIsRefusedWithItsLine(text: String, line: Int, words: String) {
    let found = problem(text)
    #expect(found?.line == line, "\(text.debugDescription): \(String(describing: found))")
    #expect(
      found?.message.contains(words) == true,
      "\(text.debugDescription): \(String(describing: found))")
  }

  /// Found by `make fuzz` (config): a quoted key's escapes reached the message as raw
  /// controls; every key a message quotes is now shown as the value is.
  @Test(arguments: [
    (#""x\fo" 7"#, "expected '=' after 'x?o'"), (#""k\u009b" = 1 2"#, "after the value of 'k?'"),
    ("\"\\u202eb\" = 1\n\"\\u202eb\" = 2", "'b' is set twice"),
  ])
  func aKeyInAMessageHasNoControl(text: String, message: String) {
    let problem = problem(text)
    #expect(problem?.message.contains(message) == true, "\(String(describing: problem))")
  }

  @Test func invalidUTF8IsRefusedOnItsLine() {
    let bytes: [UInt8] = Array("a = 1\n".utf8) + [0x62, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22]
    #expect(throws: ConfigProblem(line: 2, message: "not valid UTF-8")) {
      try ConfigReader.read(bytes)
    }
  }
}

/// Type names on the command line: name or label, any case, a suggestion for a near miss.
@Suite struct TypeNamesTests {
  let types = [
    CardType(name: "fact", label: "Fact"), CardType(name: "word", label: "Rare word"),
    CardType(name: "trivia", label: "Trivia"),
  ]

  @Test func namesAndLabelsMatchInAnyCase() {
    #expect(TypeNames.resolve("fact", among: types) == .found("fact"))
    #expect(TypeNames.resolve("Fact", among: types) == .found("fact"))
    #expect(TypeNames.resolve("rare WORD", among: types) == .found("word"))
  }

  @Test func aNearMissIsSuggestedAndAFarOneIsNot() {
    #expect(TypeNames.resolve("facs", among: types) == .unknown(suggestion: "fact"))
    #expect(TypeNames.resolve("trivai", among: types) == .unknown(suggestion: "trivia"))
    #expect(TypeNames.resolve("haiku", among: types) == .unknown(suggestion: nil))
    #expect(TypeNames.resolve("", among: types) == .unknown(suggestion: nil))
  }
}

@Suite struct NearestWordTests {
  @Test func typosOfCommandsAreSuggested() {
    let commands = ["next", "types", "enable", "disable", "history", "deck", "help"]
    #expect(Spelling.nearest("histroy", among: commands) == "history")
    #expect(Spelling.nearest("nxet", among: commands) == "next")
    #expect(Spelling.nearest("typse", among: commands) == "types")
    #expect(Spelling.nearest("frobnicate", among: commands) == nil)
  }
}

/// The config file's stated limit: 64 KiB read, one byte more refused; and only a regular file.
@Suite struct ConfigFileLimitTests {
  private func read(_ bytes: [UInt8]) throws -> Configuration {
    let folder = try TemporaryFolder("ctfo-config")
    let path = folder.path("config.toml")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try Configuration.read(file: path)
  }

  @Test func aFileAtTheLimitIsReadAndOneByteMoreIsRefused() throws {
    let setting = Array("lookahead = 7\n".utf8)
    let filler =
      [UInt8](repeating: UInt8(ascii: "#"), count: Configuration.maxFileSize - setting.count - 1)
      + [0x0A]
    #expect(try read(setting + filler).lookahead == 7)
    #expect(throws: CLIError.self) { try read(setting + filler + [0x0A]) }
  }

  @Test func aFolderOrADeviceIsNotAConfigFile() {
    let error = #expect(throws: CLIError.self) { try Configuration.read(file: "/dev/zero") }
    #expect(error?.description.contains("not a regular file") == true)
    #expect(error?.exitCode == CLIError.configExit)
  }
}

/// A bad value exits alike wherever it is given: 78 from the config file,
/// 64 (a mistyped command) from a flag, never the generic 1.
@Suite struct SettingOriginTests {
  private let server = "http://192.0.2.2:8080"

  @Test func aBadServerExits78FromTheFileAnd64FromTheFlag() throws {
    let folder = try TemporaryFolder("ctfo-config")
    let path = folder.path("config.toml")
    try Data("server = \"\(server)\"\n".utf8).write(to: URL(fileURLWithPath: path))
    let fromFile = #expect(throws: CLIError.self) { try Configuration.read(file: path) }
    #expect(fromFile?.exitCode == CLIError.configExit)
    let fromFlag = #expect(throws: CLIError.self) {
      try Configuration.load(file: folder.path("none.toml"), flags: OptionValues(server: server))
    }
    #expect(fromFlag?.exitCode == CLIError.usageExit, "\(fromFlag?.description ?? "")")
  }
}

/// `motion`: full by default, none from the file or `--no-motion`; another value names both.
@Suite struct MotionSettingTests {
  @Test func motionComesFromTheFileOrTheFlag() throws {
    let folder = try TemporaryFolder("ctfo-config")
    let path = folder.path("config.toml")
    let none = folder.path("none.toml")
    #expect(try Configuration.load(file: none, flags: OptionValues()).motion == .full)
    #expect(try Configuration.load(file: none, flags: OptionValues(noMotion: true)).motion == .none)
    try Data("motion = \"none\"\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(try Configuration.read(file: path).motion == .none)
    try Data("motion = \"slow\"\n".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: CLIError.self) { try Configuration.read(file: path) }
    #expect(error?.description == "\(path):1: motion must be full or none (got 'slow')")
    #expect(error?.exitCode == CLIError.configExit)
  }
}
