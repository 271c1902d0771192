import Foundation
import Testing

/// Issue 4's "Done when": the release binary driven in tmux on a test deck.
@Suite(.serialized) struct EndToEndTests {
  /// Swipes `count` cards and returns their titles in the order shown.
  private func swipe(_ count: Int, in app: AppUnderTest, from first: String) async throws
    -> [String]
  {
    var titles = [first]
    for i in 0..<count {
      try app.tmux.send(["Right", "Left", "Up"][i % 3])
      titles.append(try await app.waitForCard(after: titles.last))
    }
    return titles
  }

  @Test func swipeFiftyThenHistoryNewestFirstOpenOneAndReturn() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 40, words: 40))
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    let titles = try await swipe(50, in: app, from: first)
    #expect(Set(titles).count == titles.count, "no card repeats in 51: \(titles)")

    try app.tmux.send("Down")
    let history = try await app.tmux.waitFor(text: "newest first")
    let listed = history.compactMap { AppUnderTest.cardTitle([$0]) }
    #expect(listed.count >= 10)
    #expect(listed == Array(titles.reversed().prefix(listed.count)))

    try app.tmux.send("Down", "Enter")
    let opened = titles[titles.count - 2]
    let number = Int(opened.suffix(2))!
    try await app.tmux.waitFor(text: "of \(opened.hasPrefix("Fact") ? "fact" : "word") \(number).")
    try app.tmux.send("Escape")
    try await app.tmux.waitFor(text: "newest first")
    try app.tmux.send("q")
    let back = try await app.tmux.waitFor("the feed") { $0.contains { $0.contains("→ TFU") } }
    #expect(AppUnderTest.cardTitle(back) == titles.last)
  }

  @Test func aDisabledTypeIsNotShownInTheNextThirtyCards() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 40, words: 40))
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    try app.tmux.send("s")
    try await app.tmux.waitFor(text: "[x] Word")
    try app.tmux.send("Down", "Space")
    try await app.tmux.waitFor(text: "[ ] Word")
    try app.tmux.send("Escape")
    let titles = try await swipe(30, in: app, from: first).dropFirst()
    #expect(titles.count == 30)
    #expect(titles.allSatisfy { $0.hasPrefix("Fact") }, "\(titles)")
  }

  @Test func refusesToDisableTheLastType() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 3, words: 0))
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    try app.tmux.send("s")
    try await app.tmux.waitFor(text: "[x] Fact")
    try app.tmux.send("Space")
    try await app.tmux.waitFor(text: "stay enabled")
    #expect(try app.tmux.screen().contains { $0.contains("[x] Fact") })
  }

  @Test func resizesSmallTooSmallAndBack() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 10, words: 10))
    defer { app.stop() }
    let title = try await app.waitForCard(after: nil)
    try app.tmux.resize(width: 30, height: 10)
    try await app.tmux.waitFor("the card at 30x10") { screen in
      screen.count >= 10 && screen.allSatisfy { $0.count <= 30 }
        && AppUnderTest.cardTitle(screen) == title
    }
    try app.tmux.resize(width: 15, height: 5)
    try await app.tmux.waitFor(text: "Too small")
    try app.tmux.resize(width: 80, height: 24)
    let screen = try await app.tmux.waitFor(text: "→ TFU")
    #expect(AppUnderTest.cardTitle(screen) == title)
    #expect(try app.tmux.format("#{pane_dead}") == "0")
  }

  @Test func quitRestoresTheTerminal() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 5, words: 5))
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    #expect(try app.tmux.format("#{alternate_on}") == "1")
    try app.tmux.send("q")
    let screen = try await app.tmux.waitFor(text: "exit=0")
    #expect(try app.tmux.format("#{alternate_on}") == "0")
    #expect(!screen.contains { $0.contains("→ TFU") })
    #expect(screen.contains { $0.contains("icanon") && !$0.contains("-icanon") })
    #expect(screen.contains { $0.contains("echo") && !$0.contains("-echo") })
  }

  @Test func aSlowSourceShowsThePlaceholderThenTheCardWithNoKeyPressed() async throws {
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5),
      environment: ["CTFO_TEST_FETCH_DELAY_MS": "1500"])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Loading")
    _ = try await app.waitForCard(after: nil)
  }
}
