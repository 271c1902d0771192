import Foundation
import Testing

/// A setting changed by another process reaches the running app without a restart: its
/// settings screen and its queue, woken by the change itself, not by a key.
@Suite struct SettingsElsewhereTests {
  @Test func disablingATypeInAnotherTerminalReachesTheRunningApp() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 10, words: 10))
    defer { app.stop() }
    var card = try await app.waitForShownCard(after: nil)
    try app.tmux.send("s")
    try await app.tmux.waitFor("both types on") { screen in
      screen.contains { $0.contains("[x] Fact") } && screen.contains { $0.contains("[x] Word") }
    }
    var cli = try CommandLine(bundled: false)
    cli.environment["CTFO_HOME"] = app.home.path
    let deck = app.home.appendingPathComponent("test.jsonl").path
    let disabled = try cli.run(["--deck", deck, "disable", "word"])
    #expect(disabled.status == 0, "\(disabled.stderr)")
    // No key is sent: the change wakes the app, which redraws its settings screen.
    try await app.tmux.waitFor("Word off on the open settings screen") { screen in
      screen.contains { $0.contains("[ ] Word") } && screen.contains { $0.contains("[x] Fact") }
    }
    try app.tmux.send("Escape")
    // The card on screen stays; every card after it is a fact.
    var titles: [String] = []
    for _ in 0..<8 {
      try app.tmux.send("Right")
      card = try await app.waitForShownCard(after: card)
      titles.append(card.title)
    }
    #expect(titles.allSatisfy { $0.hasPrefix("Fact") }, "\(titles)")
    let enabled = try cli.run(["--deck", deck, "enable", "--yes", "word"])
    #expect(enabled.status == 0, "\(enabled.stderr)")
    try app.tmux.send("s")
    try await app.tmux.waitFor("Word on again") { $0.contains { $0.contains("[x] Word") } }
  }
}
