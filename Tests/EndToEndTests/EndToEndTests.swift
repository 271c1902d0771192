import Foundation
import Testing

/// The release binary driven in tmux on a test deck: swipes, history, settings, sizes, undo,
/// help and quit.
@Suite(.serialized, .timeLimit(.minutes(5))) struct EndToEndTests {
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

  /// On screen: 51 cards one after another, each a new title (no repeat); after Down the
  /// history screen ("newest first") lists those titles newest first; Enter opens the one
  /// selected (its body "of fact N." / "of word N." shown), Escape returns to the list, q to the
  /// feed with the last card's title. Then, after quitting: the history records each swipe's
  /// reaction as the key sent (Right TFU, Left TIFB, Up CTFO).
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
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    try expectReactions(of: titles, in: app)
  }

  /// The history records, for each card swiped by `swipe`, the reaction of the key sent
  /// (Right TFU, Left TIFB, Up CTFO in turn), and none for the card left on screen.
  private func expectReactions(of titles: [String], in app: AppUnderTest) throws {
    let recorded = try app.recordedReactions()
    for (i, title) in titles.dropLast().enumerated() {
      let sent = ["TFU", "TIFB", "CTFO"][i % 3]
      #expect(recorded[title] == .some(sent), "\(title) was swiped \(sent)")
    }
    #expect(recorded[titles.last!] == .some(nil), "\(titles.last!) is on screen, unswiped")
  }

  /// On screen: the settings page shows "[x] Word", then "[ ] Word" after Down Space; back on
  /// the feed, the next 30 cards' titles are all "Fact NN". After quitting, the history records
  /// each swipe's reaction as the key sent.
  @Test func aDisabledTypeIsNotShownInTheNextThirtyCards() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 40, words: 40))
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    try await app.turnWordOff()
    let shown = try await swipe(30, in: app, from: first)
    let titles = shown.dropFirst()
    #expect(titles.count == 30)
    #expect(titles.allSatisfy { $0.hasPrefix("Fact") }, "\(titles)")
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    try expectReactions(of: shown, in: app)
  }

  /// On screen: with one type, Space on it in the settings shows the refusal ("stay enabled")
  /// and the type still checked, "[x] Fact".
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

  /// On screen: at 30x10 the same card, whole: box closed (┌┐ over └┘), │ in one column on the
  /// left and one on the right on every row, nothing right of it, the title and body inside;
  /// at 15x5 "Too small"; back at 80x24 the feed ("→ TFU") with the same title, the pane alive.
  @Test func resizesSmallTooSmallAndBack() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 10, words: 10))
    defer { app.stop() }
    let title = try await app.waitForCard(after: nil)
    try app.tmux.resize(width: 30, height: 10)
    // The app draws the card again for 30x10: its box closed, each border in one column on
    // every row, no text outside it, its title and body inside (a frame caught half drawn is
    // polled again; the last problems found are the failure).
    var problems: [String] = []
    do {
      try await app.tmux.waitFor("the card whole at 30x10") { screen in
        problems = CardBox.problems(screen, width: 30, title: title, body: TestDeck.body(of: title))
        return problems.isEmpty
      }
    } catch {
      Issue.record("the card at 30x10: \(problems)")
      throw error
    }
    try app.tmux.resize(width: 15, height: 5)
    try await app.tmux.waitFor(text: "Too small")
    try app.tmux.resize(width: 80, height: 24)
    let screen = try await app.tmux.waitFor(text: "→ TFU")
    #expect(AppUnderTest.cardTitle(screen) == title)
    #expect(try app.tmux.format("#{pane_dead}") == "0")
  }

  /// On screen: while the card shows, the alternate screen is on; after q the shell prints
  /// "exit=0", the alternate screen is off, no feed footer is left, and `stty` shows icanon and
  /// echo back on.
  @Test func quitRestoresTheTerminal() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 5, words: 5))
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    #expect(try app.tmux.format("#{alternate_on}") == "1")
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    let screen = try await app.tmux.waitFor(text: "icanon")
    #expect(try app.tmux.format("#{alternate_on}") == "0")
    #expect(!screen.contains { $0.contains("→ TFU") })
    #expect(screen.contains { $0.contains("icanon") && !$0.contains("-icanon") })
    #expect(screen.contains { $0.contains("echo") && !$0.contains("-echo") })
  }

  /// On screen: with every fetch 1.5 s slow, "Loading" first, then a card with the feed footer
  /// ("→ TFU"), no key pressed.
  @Test func aSlowSourceShowsThePlaceholderThenTheCardWithNoKeyPressed() async throws {
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5),
      environment: ["CTFO_TEST_FETCH_DELAY_MS": "1500"])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Loading")
    _ = try await app.waitForCard(after: nil)
  }

  /// On screen: after Right a new title; after u the first card's title again. After
  /// quitting, the history holds no reaction for the first card (the undo withdrew the TFU)
  /// and does not list the second, which waits to come back after it.
  @Test func undoBringsTheSwipedCardBack() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 10, words: 10))
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    try app.tmux.send("Right")
    let second = try await app.waitForCard(after: first)
    try app.tmux.send("u")
    try await app.tmux.waitFor("\(first) back") { AppUnderTest.cardTitle($0) == first }
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    let recorded = try app.recordedReactions()
    #expect(recorded[first] == .some(nil), "\(first)'s TFU was undone: \(recorded)")
    #expect(recorded[second] == nil, "\(second) waits to come back: \(recorded)")
  }

  /// On screen: after C-c, SIGTERM or SIGHUP the shell prints "exit=…", the alternate screen is
  /// off and `stty` shows icanon on.
  @Test(arguments: ["C-c", "SIGTERM", "SIGHUP"])
  func interruptsAndSignalsRestoreTheTerminal(how: String) async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 5, words: 5))
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    if how == "C-c" {
      try app.tmux.send("C-c")
    } else {
      let shell = try #require(Int32(try app.tmux.format("#{pane_pid}")))
      let pid = try #require(AppUnderTest.child(of: shell))
      kill(pid, how == "SIGTERM" ? SIGTERM : SIGHUP)
    }
    try await app.tmux.waitFor(text: "exit=")
    let screen = try await app.tmux.waitFor(text: "icanon")
    #expect(try app.tmux.format("#{alternate_on}") == "0")
    #expect(screen.contains { $0.contains("icanon") && !$0.contains("-icanon") })
  }

  /// On screen: "?" shows the "Keys" page naming TFU, TIFB, CTFO, history, undo, settings and
  /// quit.
  @Test func helpListsEveryKey() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 5, words: 5))
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    try app.tmux.send("?")
    let screen = try await app.tmux.waitFor(text: "Keys")
    for action in ["TFU", "TIFB", "CTFO", "history", "undo", "settings", "quit"] {
      #expect(screen.contains { $0.contains(action) }, "help lacks \(action)")
    }
  }

  /// On screen, with the SGR escapes: the " Fact " label is cyan (ESC[36m) by default, bold
  /// reverse (ESC[1;7m) and not cyan with NO_COLOR=1.
  @Test(arguments: [false, true])
  func typeLabelsUseColourUnlessNoColourAsksForReverse(noColour: Bool) async throws {
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 0),
      environment: noColour ? ["NO_COLOR": "1"] : [:])
    defer { app.stop() }
    _ = try await app.waitForCard(after: nil)
    let label = try #require(try app.tmux.screen(escapes: true).first { $0.contains(" Fact ") })
    let cyan = "\u{1b}[36m"
    #expect(label.contains(cyan) == !noColour, "\(label.debugDescription)")
    #expect(label.contains("\u{1b}[1;7m") == noColour, "\(label.debugDescription)")
  }
}
