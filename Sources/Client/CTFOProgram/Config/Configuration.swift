import App
import CTFOWire
import FeedCore
import HTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The settings of `config.toml`, overridden by the command line's flags.
///
///     undo-limit = 5
///     on-replace = "clear-tombstones"
///     on-launch = "restore"
///     lookahead = 5
///
/// The file is read by `ConfigReader`, which takes only this much TOML and refuses the rest
/// with its line.
public struct Configuration: Equatable, Sendable {
  public var undo = UndoConfiguration()
  public var lookahead = 5
  /// The `[keys]` table as written, in order; the app checks the names (`KeyBindings`).
  public var keyBindings: [KeyBindingEntry] = []
  /// The CTFO server (`server = "https://..."`); nil keeps ctfo offline on its decks.
  public var server: Endpoint?
  /// A PEM file of the authorities to trust for the server instead of the system's.
  public var serverAuthorities: String?
  /// Seconds between the app's pulls while it runs.
  public var pullInterval = 600
  /// The order the server gives: by score (`hot`) or by time of publication (`recent`).
  public var feed = PullFeed.hot
  /// Where analytics go: `analytics = false` and the `[analytics]` table.
  public var analytics = AnalyticsSettings()
  /// The most disk the server's card text may take, in bytes (`precache-budget`, in MiB): long
  /// bodies a pull left out are fetched ahead while it has room. 0 fetches none ahead.
  public var precacheBudget = 64 << 20
  /// `[hooks] reaction = "CMD"`: run when a reaction becomes final (`ReactionHook`). The user's
  /// own command: `analytics = false` and `DO_NOT_TRACK` leave it on.
  public var reactionHook: String?
  /// `motion = "none"`: a swipe is one frame, no slide-out (the default with
  /// `CTFO_REDUCE_MOTION=1`; `--no-motion` too).
  public var motion = Motion.full
  /// `clipboard = false`: `y` copies nothing (OSC 52 is off).
  public var clipboard = true
  /// `ascii = true`: the screens draw their borders, marks and arrows in ASCII, and cut text
  /// ends with "..." (the default with `CTFO_ASCII=1`; `--ascii` too).
  public var ascii = false
  /// `linear = true` (`--linear`): plain lines, no full screen (`LinearDisplay`).
  public var linear = false
  /// `mouse = false` (or `true`): whether the app asks the terminal for mouse reports; unset,
  /// it does where terminfo names them (`kmous`).
  public var mouse: Bool?
  /// `[labels]`: a type's label over its deck's (`riddles = "Riddles & jokes"`), by type name.
  public var labels: [String: String] = [:]
  /// `[feeds]`: the feeds subscribed to in the config file, by the name given them (their
  /// type); `ctfo feed add` keeps its own list in the state folder.
  public var feeds: [String: String] = [:]

  public static let keys = [
    "undo-limit", "on-replace", "on-launch", "lookahead", "server", "server-ca", "pull-interval",
    "feed", "precache-budget", "analytics", "hooks.reaction", "motion", "clipboard", "ascii", "linear",
    "mouse",
  ] + AnalyticsSettings.keys.map { "analytics." + $0 }

  public init() {}

  /// The largest config file read: a few settings take a few hundred bytes.
  public static let maxFileSize = 64 * 1024

  /// The settings of the config file alone (a missing file is the defaults).
  public static func read(file: String) throws(CLIError) -> Configuration {
    var config = Configuration()
    if Environment.reducesMotion { config.motion = .none }
    if Environment.asksForASCII { config.ascii = true }
    guard let bytes = try readFile(file) else { return config }
    let entries: [ConfigEntry]
    do {
      entries = try ConfigReader.read(bytes)
    } catch {
      throw CLIError("\(file):\(error.line): \(error.message)", exitCode: CLIError.configExit)
    }
    for entry in entries {
      if case .strings(let keys) = entry.value {
        let action = String(entry.key.dropFirst(ConfigReader.keysTable.count + 1))
        config.keyBindings.append(KeyBindingEntry(action: action, keys: keys, line: entry.line))
        continue
      }
      do {
        try config.set(entry.key, to: entry.value.text, in: "\(file):\(entry.line)")
      } catch {
        throw CLIError(error.description, exitCode: CLIError.configExit)
      }
    }
    return config
  }

  /// Reads the config file, then applies the flags.
  public static func load(file: String, flags: OptionValues) throws(CLIError) -> Configuration {
    var config = try read(file: file)
    try config.apply(flags: flags)
    return config
  }

  /// The file's bytes; nil when there is no file. Only a regular file of at most
  /// `maxFileSize` bytes is read.
  private static func readFile(_ path: String) throws(CLIError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw CLIError(
        "\(path): cannot read the config file: \(Errors.text(errno))", exitCode: CLIError.configExit
      )
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw CLIError(
        "\(path): the config file is not a regular file", exitCode: CLIError.configExit)
    }
    guard info.st_size <= maxFileSize else {
      throw CLIError(
        "\(path): the config file is larger than \(maxFileSize / 1024) KiB",
        exitCode: CLIError.configExit)
    }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      count += n
    }
    return Array(bytes[..<count])
  }

  public mutating func apply(flags: OptionValues) throws(CLIError) {
    let given: [(String, String?)] = [
      ("undo-limit", flags.undoLimit.map(String.init)), ("on-replace", flags.onReplace),
      ("on-launch", flags.onLaunch), ("lookahead", flags.lookahead.map(String.init)),
      ("server", flags.server), ("feed", flags.feed),
    ]
    for case (let key, let value?) in given {
      // A bad value on the command line is a mistyped command (EX_USAGE), whatever the key.
      do { try set(key, to: value, in: "--\(key)") } catch {
        throw CLIError(error.description, exitCode: CLIError.usageExit)
      }
    }
    if flags.noAnalytics || Environment.doNotTrack { analytics.enabled = false }
    if flags.noMotion { motion = .none }
    if flags.ascii { ascii = true }
    if flags.linear { linear = true }
  }

  /// Sets one setting from its text; `origin` names where it came from in the error.
  public mutating func set(_ key: String, to value: String, in origin: String) throws(CLIError) {
    // A flag names its key itself: "--server: ...", not "--server: server: ...".
    let subject = origin == "--\(key)" ? origin : "\(origin): \(key)"
    func bad(_ allowed: String) -> CLIError {
      CLIError("\(subject) must be \(allowed) (got '\(value)')")
    }
    func boolean() throws(CLIError) -> Bool {
      guard let on = Bool(value) else { throw bad("true or false") }
      return on
    }
    switch key {
    case "undo-limit":
      guard let n = Int(value), (0...1000).contains(n) else {
        throw bad("a whole number from 0 to 1000")
      }
      undo.limit = n
    case "lookahead":
      guard let n = Int(value), (1...100).contains(n) else {
        throw bad("a whole number from 1 to 100")
      }
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
    case "server":
      do { server = try Endpoint(parsing: value) } catch {
        throw CLIError("\(subject): \(error)")
      }
    case "server-ca":
      guard !value.isEmpty, access(value, R_OK) == 0 else {
        throw bad("a readable PEM file of certificate authorities")
      }
      serverAuthorities = value
    case "pull-interval":
      guard let n = Int(value), (30...86_400).contains(n) else {
        throw bad("a number of seconds from 30 to 86400")
      }
      pullInterval = n
    case "feed":
      guard let f = PullFeed(rawValue: value) else { throw bad("hot or recent") }
      feed = f
    case "analytics", "analytics.enabled": analytics.enabled = try boolean()
    case "precache-budget":
      guard let n = Int(value), (0...4096).contains(n) else {
        throw bad("a number of MiB from 0 to 4096")
      }
      precacheBudget = n << 20
    case "ascii": ascii = try boolean()
    case "linear": linear = try boolean()
    case "mouse": mouse = try boolean()
    case "clipboard": clipboard = try boolean()
    case "motion":
      guard let m = Motion(rawValue: value) else { throw bad("full or none") }
      motion = m
    case "hooks.reaction":
      guard !value.allSatisfy(\.isWhitespace) else { throw bad("a command") }
      reactionHook = value
    case _ where key.hasPrefix("labels."):
      let name = String(key.dropFirst("labels.".count))
      guard !value.isEmpty, value.utf8.count <= 64, !value.unicodeScalars.contains(where: {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
      }) else { throw bad("a label of at most 64 bytes, without control characters") }
      labels[name] = value
    case _ where key.hasPrefix("feeds."):
      guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
        throw bad("an http:// or https:// address of a feed")
      }
      feeds[String(key.dropFirst("feeds.".count))] = value
    case _ where key.hasPrefix("analytics."):
      try analytics.set(String(key.dropFirst("analytics.".count)), to: value, in: origin)
    default:
      throw CLIError("\(origin): unknown setting '\(key)'")
    }
  }
}

/// Where analytics go (ctfo.md, "Implementation: Analytics"): nowhere unless configured.
///
///     analytics = true                 # false records nothing at all
///     [analytics]
///     server = true                    # to the CTFO server, when `server` is set
///     mixpanel-token = "0123abcd"      # Mixpanel's /import, with this project token
///     ga-measurement-id = "G-XXXXXXX"  # GA4's Measurement Protocol, with both of these
///     ga-api-secret = "secret"
public struct AnalyticsSettings: Equatable, Sendable {
  /// False with `analytics = false`, `--no-analytics` or `DO_NOT_TRACK=1`.
  public var enabled = true
  /// Events go to the CTFO server (when one is configured).
  public var toServer = true
  public var mixpanelToken: String?
  public var mixpanelURL = try! Endpoint(parsing: "https://api.mixpanel.com")
  public var gaMeasurementID: String?
  public var gaAPISecret: String?
  public var gaURL = try! Endpoint(parsing: "https://www.google-analytics.com")

  public static let keys = [
    "enabled", "server", "mixpanel-token", "mixpanel-url", "ga-measurement-id", "ga-api-secret",
    "ga-url",
  ]

  public init() {}

  mutating func set(_ key: String, to value: String, in origin: String) throws(CLIError) {
    func bad(_ allowed: String) -> CLIError {
      CLIError("\(origin): analytics.\(key) must be \(allowed) (got '\(value)')")
    }
    func text() throws(CLIError) -> String {
      guard (1...256).contains(value.utf8.count),
        value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
      else { throw bad("1 to 256 printable ASCII characters") }
      return value
    }
    func endpoint() throws(CLIError) -> Endpoint {
      do { return try Endpoint(parsing: value) } catch {
        throw CLIError("\(origin): analytics.\(key): \(error)")
      }
    }
    switch key {
    case "enabled":
      guard let on = Bool(value) else { throw bad("true or false") }
      enabled = on
    case "server":
      guard let on = Bool(value) else { throw bad("true or false") }
      toServer = on
    case "mixpanel-token": mixpanelToken = try text()
    case "mixpanel-url": mixpanelURL = try endpoint()
    case "ga-measurement-id": gaMeasurementID = try text()
    case "ga-api-secret": gaAPISecret = try text()
    case "ga-url": gaURL = try endpoint()
    default: throw CLIError("\(origin): unknown setting 'analytics.\(key)'")
    }
  }
}

/// One line of the `[keys]` table: an action's name and the names of its keys.
public struct KeyBindingEntry: Sendable, Hashable {
  public var action: String
  public var keys: [String]
  public var line: Int

  public init(action: String, keys: [String], line: Int) {
    self.action = action
    self.keys = keys
    self.line = line
  }
}

/// An error the command line reports as one line on stderr, with a non-zero exit.
public struct CLIError: Error, CustomStringConvertible {
  public var description: String
  /// The exit status: 1 unless said otherwise.
  public var exitCode: Int32

  /// The status of a bad config file (sysexits' EX_CONFIG).
  public static let configExit: Int32 = 78
  /// The status of a mistyped command (sysexits' EX_USAGE).
  public static let usageExit: Int32 = 64

  public init(_ description: String, exitCode: Int32 = 1) {
    self.description = description
    self.exitCode = exitCode
  }
}

/// The C library's words for an error number.
public enum Errors {
  public static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
