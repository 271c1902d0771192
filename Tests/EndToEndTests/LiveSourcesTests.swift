import Foundation
import Testing

/// Live sources in the real app: a deck file edited while the app runs, and cards
/// piped into `ctfo --deck -` while the keys come from the terminal.
@Suite struct LiveSourcesTests {
  private static let stream = #""type":"stream""#

  /// A card of the stream's type, titled "Stream NN".
  private static func line(_ n: Int) -> String {
    let number = n < 10 ? "0\(n)" : "\(n)"
    return #"{"id":"s\#(n)",\#(stream),"title":"Stream \#(number)","body":"Streamed card \#(n)."}"#
      + "\n"
  }

  /// Every "Stream NN" title on the screen.
  private static func streamTitles(_ screen: [String]) -> [String] {
    AppUnderTest.matches(#"Stream \d\d"#, in: screen)
  }

  @Test func editingTheDeckWhileTheAppRunsBringsTheNewCardAndNeverTheDeletedOne() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 3, words: 0))
    defer { app.stop() }
    let first = try await app.waitForShownCard(after: nil)
    // Saved as an editor saves: a new file renamed over the old one. Fact 01 is deleted, Fact
    // 09 is new, and a bad line is reported by its file and line while the rest applies.
    let deck = app.home.appendingPathComponent("test.jsonl")
    let edited =
      TestDeck.make(facts: 3, words: 0).split(separator: "\n").filter { !$0.contains(#""f1""#) }
      + [
        #"{"id":"f9","type":"fact","title":"Fact 09","body":"A card added while the app ran."}"#,
        #"{"id":"bad", this is not JSON"#,
      ]
    let saved = app.home.appendingPathComponent(".test.jsonl.new")
    try (edited.joined(separator: "\n") + "\n").write(to: saved, atomically: false, encoding: .utf8)
    #expect(rename(saved.path, deck.path) == 0)
    // The bad line's report comes after the change applied: from then on, Fact 01 is gone.
    // (The home's long path cuts the message at the hint line's end, with "…".)
    try await app.tmux.waitFor(text: "test.jsonl:5: not valid")
    // The card on screen stays until it is swiped.
    #expect(AppUnderTest.shownCard(try app.tmux.screen())?.title == first.title)
    var card = first
    var titles: [String] = []
    for _ in 0..<9 {
      try app.tmux.send("Right")
      card = try await app.waitForShownCard(after: card)
      titles.append(card.title)
    }
    #expect(titles.contains("Fact 09"), "\(titles)")
    #expect(!titles.contains("Fact 01"), "\(titles)")
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
  }

  @Test func cardsPipedIntoTheAppShowAsTheyArriveWhileKeysComeFromTheTerminal() async throws {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctfo-e2e-cards-\(UUID())")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    defer { unlink(fifo.path) }
    let app = try AppUnderTest(
      deck: "", arguments: ["--deck", "-"], input: fifo.path)
    defer { app.stop() }
    // The shell opens the FIFO for the app's standard input: wait for that reader.
    var writer: Int32 = -1
    try await Poll.until("the app reading the FIFO", seconds: 10) {
      // O_CLOEXEC: a process another test starts meanwhile must not hold the FIFO open.
      writer = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      return writer >= 0
    }
    defer { if writer >= 0 { close(writer) } }
    func send(_ text: String) { _ = text.withCString { write(writer, $0, strlen($0)) } }

    // Nothing has come yet: the placeholder, not an error.
    try await app.tmux.waitFor("the placeholder") { screen in
      screen.contains { $0.contains("Loading…") }
    }
    /// The card that settles on screen after `previous` (its title and number; a capture
    /// during a slide-out shows two cards and is passed over).
    func settled(after previous: AppUnderTest.ShownCard?) async throws -> AppUnderTest.ShownCard {
      let screen = try await app.tmux.waitFor("a card after \(previous?.title ?? "none")") {
        screen in
        screen.contains { $0.contains("→ TFU") }
          && AppUnderTest.shownCard(screen, title: #"Stream \d\d"#).map { $0 != previous }
            ?? false
      }
      return AppUnderTest.shownCard(screen, title: #"Stream \d\d"#)!
    }
    send(Self.line(1))
    var card = try await settled(after: nil)
    #expect(card.title == "Stream 01")
    // A pause: the user swipes the only card (it comes round again) until more arrive.
    try app.tmux.send("Right")
    card = try await settled(after: card)
    send(Self.line(2) + Self.line(3))
    var seen: Set<String> = []
    for _ in 0..<12 where seen.count < 3 {
      try app.tmux.send("Right")
      card = try await settled(after: card)
      seen.insert(card.title)
    }
    #expect(seen == ["Stream 01", "Stream 02", "Stream 03"])
    // The end of the input is not an error: the app says so and goes on.
    close(writer)
    writer = -1
    try await app.tmux.waitFor(text: "stdin: all 3 cards read")
    try app.tmux.send("Right")
    try await app.tmux.waitFor("a card after the end") {
      !Self.streamTitles($0).isEmpty
    }
    // `q` gives the terminal back as it was: canonical mode and echo on.
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    let screen = try await app.tmux.waitFor(text: "icanon")
    #expect(try app.tmux.format("#{alternate_on}") == "0")
    #expect(screen.contains { $0.contains("icanon") && !$0.contains("-icanon") })
    #expect(screen.contains { $0.contains("echo") && !$0.contains("-echo") })
  }

  /// A piped deck's bad lines are kept and listed in the settings, as a deck file's are
  /// (they showed once and settings said "No deck problems").
  @Test func aPipedDecksProblemsShowInTheSettingsAsADeckFilesDo() async throws {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctfo-e2e-piped-\(UUID()).jsonl")
    try (Self.line(1) + "{not json\n" + #"{"id":"s2","type":"stream","body":"  "}"# + "\n")
      .write(to: input, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: input) }
    let app = try AppUnderTest(deck: "", arguments: ["--deck", "-"], input: input.path)
    defer { app.stop() }
    // The card first. The problems of the lines after it reach the app as they are read, in one
    // live update or in two (their transient message may come and go between two looks), so the
    // settings are opened again until they list both.
    try await app.tmux.waitFor(text: "Streamed card 1.")
    var listed = false
    for _ in 0..<5 where !listed {
      try app.tmux.send("s")
      listed = (try? await app.tmux.waitFor(text: "2 deck problems: stdin:2:", seconds: 3)) != nil
      if !listed { try app.tmux.send("Escape") }
    }
    #expect(listed, "the settings list both problems of the piped deck")
  }

  @Test func aDeckFromStandardInputIsRefusedWhenStandardInputIsTheTerminal() async throws {
    let app = try AppUnderTest(deck: "", arguments: ["--deck", "-"])
    defer { app.stop() }
    let screen = try await app.tmux.waitFor(text: "exit=64")
    #expect(screen.joined().contains("pipe them in: some-command | ctfo --deck -"), "\(screen)")
  }
}
