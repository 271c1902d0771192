import Foundation
import Testing

/// The history view after an undo, and `/` to search it, in the release
/// binary, checked against `ctfo history` on the same home.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HistoryViewTests {
  private let deck = TestDeck.make(facts: 10, words: 10)

  /// `ctfo history --json` on the app's home, with `arguments` added.
  private func history(_ app: AppUnderTest, _ arguments: [String] = []) throws -> [[String: Any]] {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = app.home.path
    let deckFile = app.home.appendingPathComponent("test.jsonl").path
    let result = try cli.run(["--deck", deckFile, "history", "--json"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.objects
  }

  /// Waits for the first card, then swipes right `swipes` times; the titles shown, in order.
  private func titles(_ app: AppUnderTest, swipes: Int) async throws -> [String] {
    var titles = [try await app.waitForCard(after: nil)]
    for _ in 0..<swipes {
      try app.tmux.send("Right")
      titles.append(try await app.waitForCard(after: titles.last))
    }
    return titles
  }

  /// The history view's rows: the titles of the test deck, top to bottom.
  private static func listed(_ screen: [String]) -> [String] {
    screen.dropFirst().compactMap { AppUnderTest.cardTitle([$0]) }
  }

  /// On screen: three cards, two swipes, one u; ↓ opens the history with the card brought
  /// back at the top (the third card, pushed back, is not listed above it), and `ctfo
  /// history` lists the same.
  @Test func afterAnUndoTheCardOnScreenIsTheNewestListed() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let titles = try await titles(app, swipes: 2)
    try app.tmux.send("u")
    try await app.tmux.waitFor("\(titles[1]) back") { AppUnderTest.cardTitle($0) == titles[1] }
    try app.tmux.send("Down")
    let screen = try await app.tmux.waitFor(text: "History (2 cards")
    #expect(Self.listed(screen) == [titles[1], titles[0]], "\(screen)")
    #expect(try history(app).map { $0["title"] as? String } == [titles[1], titles[0]])
  }

  /// On screen: four cards shown; in the history view `/` opens a prompt in the hint bar,
  /// the second card's title typed in lower case shows in it, Enter lists that card alone
  /// under "1 card with"; Esc lists all four again. `ctfo history --search` finds the same.
  @Test func slashSearchesTheHistoryAsTheCommandLineDoes() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let titles = try await titles(app, swipes: 3)
    let wanted = titles[1].lowercased()
    try app.tmux.send("Down")
    try await app.tmux.waitFor(text: "/ search")
    try app.tmux.type("/" + wanted)
    try await app.tmux.waitFor(text: "/" + wanted)
    try app.tmux.send("Enter")
    let found = try await app.tmux.waitFor(text: "1 card with")
    #expect(Self.listed(found) == [titles[1]], "\(found)")
    #expect(try history(app, ["--search", wanted]).map { $0["title"] as? String } == [titles[1]])
    try app.tmux.send("Escape")
    let all = try await app.tmux.waitFor(text: "History (4 cards")
    #expect(Self.listed(all) == titles.reversed(), "\(all)")
  }

  /// On screen: cards swiped up, right, up and left; in the history view Tab lists the two
  /// CTFO cards alone under "2 cards, CTFO", Tab again the TFU one, and three more Tabs all
  /// five again (the card on screen has no reaction).
  @Test func tabListsTheCardsOfOneReaction() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    var titles = [try await app.waitForCard(after: nil)]
    for key in ["Up", "Right", "Up", "Left"] {
      try app.tmux.send(key)
      titles.append(try await app.waitForCard(after: titles.last))
    }
    try app.tmux.send("Down")
    try await app.tmux.waitFor(text: "History (5 cards")
    try app.tmux.send("Tab")
    let loved = try await app.tmux.waitFor(text: "History: 2 cards, CTFO")
    #expect(Self.listed(loved) == [titles[2], titles[0]], "\(loved)")
    try app.tmux.send("Tab")
    let liked = try await app.tmux.waitFor(text: "History: 1 card, TFU")
    #expect(Self.listed(liked) == [titles[1]], "\(liked)")
    try app.tmux.send("Tab", "Tab", "Tab")
    let all = try await app.tmux.waitFor(text: "History (5 cards")
    #expect(Self.listed(all) == titles.reversed(), "\(all)")
  }

  /// On screen: six cards, five swipes right; in the history `u` on the fourth card back
  /// shows it on the feed, and → brings the next three back in order, then the card that was
  /// on screen. The history listed the two cards left before the ones pushed back.
  @Test func uOnTheFourthCardBackUndoesFourSwipes() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let titles = try await titles(app, swipes: 5)
    try app.tmux.send("Down")
    try await app.tmux.waitFor(text: "History (6 cards")
    try app.tmux.send("j", "j", "j", "j", "u")
    try await app.tmux.waitFor("\(titles[1]) back on the feed") { screen in
      screen.contains { $0.contains("→ TFU") } && AppUnderTest.cardTitle(screen) == titles[1]
    }
    try app.tmux.send("Down")
    let history = try await app.tmux.waitFor(text: "History (2 cards")
    #expect(Self.listed(history) == [titles[1], titles[0]], "\(history)")
    try app.tmux.send("Escape")
    var back: [String] = []
    var last = titles[1]
    for _ in 0..<4 {
      try app.tmux.send("Right")
      last = try await app.waitForCard(after: last)
      back.append(last)
    }
    #expect(back == Array(titles[2...5]))
  }

  /// On screen: `b` on the oldest card in the history says it comes next, and after → it does.
  @Test func bDealsTheChosenCardNext() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let titles = try await titles(app, swipes: 2)
    try app.tmux.send("Down")
    try await app.tmux.waitFor(text: "History (3 cards")
    try app.tmux.send("j", "j", "b")
    try await app.tmux.waitFor(text: "“\(titles[0])” comes next")
    try app.tmux.send("Escape", "Right")
    let next = try await app.waitForCard(after: titles[2])
    #expect(next == titles[0])
  }
}
