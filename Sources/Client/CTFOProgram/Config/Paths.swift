import CardText
import Decks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where ctfo keeps its files: everything under one folder when `--home` or `CTFO_HOME` is
/// given, otherwise the XDG base directories.
///
/// Written on the C library alone, as `ctfo` links no full Foundation
/// (DECISIONS.md, "One binary, one store").
public struct Paths: Equatable, Sendable {
  public var configFile: String
  public var stateDatabase: String
  public var userDecks: String
  public var bundledDecks: String?
  /// Where the bundled decks were looked for, for the message that no deck was found.
  public var bundledSearch: String

  /// - Parameters:
  ///   - userHome: the user's home folder when `$HOME` is not set.
  ///   - environment: reads a variable (the process's environment unless a test says else).
  ///   - executable: this program's path, from which the bundled decks are found.
  public init(
    home: String?, userHome: String? = nil,
    environment: (String) -> String? = Environment.variable,
    executable: String? = DeckFolders.executablePath()
  ) {
    let userHome = environment("HOME") ?? userHome ?? Environment.passwordHome() ?? "/"
    if let home = home ?? environment("CTFO_HOME").flatMap({ $0.isEmpty ? nil : $0 }) {
      configFile = "\(home)/config.toml"
      stateDatabase = "\(home)/state.sqlite"
      userDecks = "\(home)/decks"
    } else {
      func xdg(_ name: String, _ fallback: String) -> String {
        let value = environment(name) ?? ""
        return value.hasPrefix("/") ? "\(value)/ctfo" : "\(userHome)/\(fallback)/ctfo"
      }
      configFile = "\(xdg("XDG_CONFIG_HOME", ".config"))/config.toml"
      stateDatabase = "\(xdg("XDG_STATE_HOME", ".local/state"))/state.sqlite"
      userDecks = "\(xdg("XDG_DATA_HOME", ".local/share"))/decks"
    }
    (bundledDecks, bundledSearch) = DeckFolders.bundled(
      environment: environment, executable: executable)
  }

  /// What to say when no deck file was found: the folders searched, and what to do.
  public var noDecksMessage: String {
    "no decks found: no *.jsonl or fortune file in \(userDecks), nor in the bundled decks "
      + "(looked in \(bundledSearch)). Put a deck in \(userDecks), or give one with --deck FILE."
  }

  /// Every deck to load, in order: bundled, the user's folder, the feeds' decks, then `--deck`
  /// files (relative to the current folder).
  public func decks(extra: [String]) -> [String] {
    let cwd = Environment.currentDirectory() ?? "."
    let flagged = extra.map { $0.hasPrefix("/") ? $0 : "\(cwd)/\($0)" }
    return DeckFolders.jsonl(in: bundledDecks) + DeckFolders.decks(in: userDecks)
      + DeckFolders.jsonl(in: feeds) + flagged
  }

  /// The feeds' folder beside the state database: their subscriptions, states and decks
  /// (`FeedBook`).
  public var feeds: String { Self.parent(of: stateDatabase) + "/feeds" }

  /// The reaction hook's last failure (`HookFailures`), beside the state database.
  public var hookFailure: String { Self.parent(of: stateDatabase) + "/hook-failure" }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

/// The process's environment, read through the C library.
public enum Environment {
  /// The variable's value, or nil when it is not set.
  public static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// `DO_NOT_TRACK` is on (consoledonottrack.com).
  public static var doNotTrack: Bool { isOn("DO_NOT_TRACK") }

  /// `CTFO_REDUCE_MOTION` is on: swipes draw no motion.
  public static var reducesMotion: Bool { isOn("CTFO_REDUCE_MOTION") }

  /// `CTFO_ASCII` asks for ASCII, as the truncation mark reads it (anything but empty or `0`):
  /// the screens draw in ASCII too.
  public static var asksForASCII: Bool {
    TruncationMark(environment: ["CTFO_ASCII": variable("CTFO_ASCII") ?? ""]) == .ascii
  }

  /// The switch `name` is set to anything but empty, `0` or `false` (in any case).
  static func isOn(_ name: String) -> Bool {
    guard let value = variable(name) else { return false }
    return !["", "0", "false"].contains(value.lowercased())
  }

  /// Every variable of the process's environment.
  public static func all() -> [String: String] {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return variables
  }

  /// The home folder of this user's entry in the password database (when `$HOME` is unset).
  public static func passwordHome() -> String? {
    guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return nil }
    return String(cString: home)
  }

  public static func currentDirectory() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
  }
}
