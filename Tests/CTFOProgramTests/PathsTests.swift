import CTFOProgram
import Decks
import Foundation
import Testing

/// A temporary folder tree, removed when the test ends.
private final class Tree {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "ctfo-paths-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// Creates `relative` (a folder, or an empty file when it has an extension) and returns its path.
  @discardableResult
  func make(_ relative: String, executable: Bool = false) throws -> String {
    let path = root + "/" + relative
    if (relative as NSString).pathExtension.isEmpty && !executable {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } else {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(
        atPath: path, contents: Data(), attributes: [.posixPermissions: executable ? 0o755 : 0o644])
    }
    return path
  }
}

@Suite struct PathsTests {
  private func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

  @Test func aHomeFolderHoldsEverything() {
    let flag = Paths(home: "/h", environment: environment(["CTFO_HOME": "/e"]), executable: nil)
    #expect(flag.configFile == "/h/config.toml" && flag.stateDatabase == "/h/state.sqlite")
    #expect(flag.userDecks == "/h/decks")
    let variable = Paths(home: nil, environment: environment(["CTFO_HOME": "/e"]), executable: nil)
    #expect(variable.stateDatabase == "/e/state.sqlite")
  }

  @Test func otherwiseTheXDGFoldersOrTheirDefaultsUnderHome() {
    let xdg = Paths(
      home: nil,
      environment: environment([
        "HOME": "/u", "CTFO_HOME": "", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "relative",
      ]), executable: nil)
    #expect(xdg.configFile == "/c/ctfo/config.toml")
    #expect(
      xdg.stateDatabase == "/u/.local/state/ctfo/state.sqlite", "a relative XDG path is ignored")
    #expect(xdg.userDecks == "/u/.local/share/ctfo/decks")
    let noHome = Paths(home: nil, userHome: "/pw", environment: environment([:]), executable: nil)
    #expect(noHome.configFile == "/pw/.config/ctfo/config.toml")
  }

  @Test func theBundledDecksAreFoundAboveTheBinaryInstalledOrBuilt() throws {
    let tree = try Tree()
    let installed = try tree.make("usr/share/ctfo/decks")
    #expect(DeckFolders.bundled(near: tree.root + "/usr/bin/ctfo") == installed)
    let resources = try tree.make("src/Resources/decks")
    #expect(DeckFolders.bundled(near: tree.root + "/src/.build/x86_64/release/ctfo") == resources)
    #expect(DeckFolders.bundled(near: tree.root + "/elsewhere/ctfo") == nil)
    let forced = Paths(
      home: "/h", environment: environment(["CTFO_BUNDLED_DECKS": ""]),
      executable: tree.root + "/usr/bin/ctfo")
    #expect(forced.bundledDecks == nil, "an empty CTFO_BUNDLED_DECKS means none")
  }

  @Test func decksAreTheBundledThenTheUsersByNameThenTheFlaggedOnes() throws {
    let tree = try Tree()
    try tree.make("bundled/b.jsonl")
    try tree.make("bundled/a.jsonl")
    try tree.make("bundled/notes.txt")
    try tree.make("home/decks/z.jsonl")
    let paths = Paths(
      home: tree.root + "/home",
      environment: environment(["CTFO_BUNDLED_DECKS": tree.root + "/bundled"]), executable: nil)
    let cwd = FileManager.default.currentDirectoryPath
    #expect(
      paths.decks(extra: ["/abs.jsonl", "rel.jsonl"]) == [
        tree.root + "/bundled/a.jsonl", tree.root + "/bundled/b.jsonl",
        tree.root + "/home/decks/z.jsonl", "/abs.jsonl", cwd + "/rel.jsonl",
      ])
  }
}
