import Foundation
import Testing

/// Issue 6's "Done when": nothing a user swiped is lost, across quits and SIGKILLs.
@Suite(.serialized) struct PersistenceTests {
  private let deck = TestDeck.make(facts: 60, words: 60)

  /// Quits with q and waits for the shell to report the exit.
  private func quit(_ app: AppUnderTest) async throws {
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
  }

  @Test func swipeThreeQuitRestartAndUndoThreeBringsThemBackInReverse() async throws {
    let first = try AppUnderTest(deck: deck)
    defer { first.stop() }
    var titles = [try await first.waitForCard(after: nil)]
    for key in ["Right", "Left", "Up"] {
      try first.tmux.send(key)
      titles.append(try await first.waitForCard(after: titles.last))
    }
    try await quit(first)
    first.tmux.kill()

    let second = try AppUnderTest(deck: deck, home: first.home)
    var onScreen = try await second.waitForShownCard(after: nil)
    for (position, expected) in titles.prefix(3).enumerated().reversed() {
      try second.tmux.send("u")
      onScreen = try await second.waitForShownCard(after: onScreen)
      #expect(onScreen == AppUnderTest.ShownCard(title: expected, position: "#\(position + 1)"))
    }
    try second.tmux.send("u")
    try await second.tmux.waitFor(text: "Nothing to undo")
    try await quit(second)
    second.tmux.kill()
  }

  @Test func sigkillAtRandomMomentsLosesNothingDrawn() async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-kill-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    let database = home.appendingPathComponent("state.sqlite").path
    var drawn = Set<String>()
    var reactions: [String: String] = [:]
    var rng = SystemRandomNumberGenerator()
    for run in 0..<50 {
      let app = try AppUnderTest(deck: deck, home: home)
      defer { app.tmux.kill() }
      var title = try await app.waitForCard(after: nil)
      drawn.insert(title)
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        let (key, reaction) = [("Right", "TFU"), ("Left", "TIFB"), ("Up", "CTFO")].randomElement()!
        try app.tmux.send(key)
        let next = try await app.waitForCard(after: title)
        reactions[title] = reaction
        title = next
        drawn.insert(title)
      }
      // One more swipe, and the kill lands somewhere in it: before, during or after its write.
      try app.tmux.send(["Right", "Left", "Up"].randomElement()!)
      if Bool.random(using: &rng) { _ = try app.tmux.screen() }
      let pid = try #require(try app.appPID(), "run \(run): the app's pid")
      #expect(kill(pid, SIGKILL) == 0)
      try await app.tmux.waitFor(text: "exit=137")

      #expect(try sqlite(database, "PRAGMA integrity_check") == ["ok"], "run \(run)")
      let rows = try sqlite(database, "SELECT title || '|' || coalesce(reaction, '') FROM history")
      var history: [String: Set<String>] = [:]
      for row in rows {
        let parts = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        history[parts[0], default: []].insert(parts[1])
      }
      for title in drawn { #expect(history[title] != nil, "run \(run): \(title) was drawn") }
      for (title, reaction) in reactions {
        #expect(history[title]?.contains(reaction) == true, "run \(run): \(title) \(reaction)")
      }
    }
  }

  @Test(arguments: ["ask-user", "block-if-tombstones"])
  func reEnablingATypeWithSwipesToUndoFollowsOnReplace(strategy: String) async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-replace-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try Data("on-replace = \"\(strategy)\"\n".utf8).write(to: home.appendingPathComponent("config.toml"))
    let app = try AppUnderTest(deck: deck, home: home)
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    try app.tmux.send("s")
    try await app.tmux.waitFor(text: "[x] Word")
    try app.tmux.send("Down", "Space")
    try await app.tmux.waitFor(text: "[ ] Word")
    try app.tmux.send("Escape")
    try app.tmux.send("Right")
    let second = try await app.waitForCard(after: first)

    try app.tmux.send("s")
    try await app.tmux.waitFor(text: "[ ] Word")
    try app.tmux.send("Down", "Space")
    if strategy == "ask-user" {
      try await app.tmux.waitFor(text: "Continue? (y/n)")
      try app.tmux.send("y")
      try await app.tmux.waitFor(text: "[x] Word")
      try app.tmux.send("Escape", "u")
      try await app.tmux.waitFor(text: "Nothing to undo")
    } else {
      try await app.tmux.waitFor(text: "Cannot change the types while 1 swipe can be undone")
      #expect(try app.tmux.screen().contains { $0.contains("[ ] Word") })
      try app.tmux.send("Escape")
      try await app.tmux.waitFor(text: "→ TFU")
      try app.tmux.send("u")
      #expect(try await app.waitForCard(after: second) == first, "the swipe is still undoable")
    }
  }

  /// Runs one query with the sqlite3 shell; one string per row.
  private func sqlite(_ path: String, _ query: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, query]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}
