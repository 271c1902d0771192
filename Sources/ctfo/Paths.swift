import Foundation

/// Where ctfo keeps its files: everything under one folder when `--home` or `CTFO_HOME` is
/// given, otherwise the XDG base directories.
struct Paths {
  var configFile: String
  var stateDatabase: String
  var userDecks: String
  var bundledDecks: String?

  init(home: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
    let userHome = environment["HOME"] ?? NSHomeDirectory()
    if let home = home ?? environment["CTFO_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
      configFile = "\(home)/config.toml"
      stateDatabase = "\(home)/state.sqlite"
      userDecks = "\(home)/decks"
    } else {
      func xdg(_ name: String, _ fallback: String) -> String {
        let value = environment[name] ?? ""
        return value.hasPrefix("/") ? "\(value)/ctfo" : "\(userHome)/\(fallback)/ctfo"
      }
      configFile = "\(xdg("XDG_CONFIG_HOME", ".config"))/config.toml"
      stateDatabase = "\(xdg("XDG_STATE_HOME", ".local/state"))/state.sqlite"
      userDecks = "\(xdg("XDG_DATA_HOME", ".local/share"))/decks"
    }
    bundledDecks = Self.findBundledDecks(environment: environment)
  }

  /// The bundled decks: `$CTFO_BUNDLED_DECKS` (empty for none), else `../share/ctfo/decks`
  /// beside the installed binary, else `Resources/decks` above a binary built in the tree.
  static func findBundledDecks(environment: [String: String]) -> String? {
    if let forced = environment["CTFO_BUNDLED_DECKS"] { return forced.isEmpty ? nil : forced }
    let fm = FileManager.default
    guard let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
    var dir = (exe as NSString).deletingLastPathComponent
    let installed = ((dir as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("share/ctfo/decks")
    if fm.fileExists(atPath: installed) { return installed }
    while dir != "/" && !dir.isEmpty {
      let candidate = (dir as NSString).appendingPathComponent("Resources/decks")
      if fm.fileExists(atPath: candidate) { return candidate }
      dir = (dir as NSString).deletingLastPathComponent
    }
    return nil
  }

  /// Every deck to load, in order: bundled, the user's folder, then `--deck` files.
  func decks(extra: [String]) -> [String] {
    func jsonl(in folder: String?) -> [String] {
      guard let folder,
        let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
      else { return [] }
      return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(folder)/\($0)" }
    }
    let cwd = FileManager.default.currentDirectoryPath
    let flagged = extra.map { $0.hasPrefix("/") ? $0 : "\(cwd)/\($0)" }
    return jsonl(in: bundledDecks) + jsonl(in: userDecks) + flagged
  }
}
