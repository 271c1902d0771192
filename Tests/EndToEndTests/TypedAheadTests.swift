import Foundation
import Testing

/// Keys typed before the app starts are read and act on the cards as they show, in the
/// full-screen app and in `--linear`; a swipe pressed on the "Loading…" placeholder reacts to
/// no card.
@Suite(.serialized, .timeLimit(.minutes(3))) struct TypedAheadTests {
  /// Runs `ctfo ARGUMENTS` on a pseudo-terminal (`script`) whose keyboard has already typed
  /// Right, Right and q: it must swipe two cards and quit. Returns what it wrote and its home.
  private func typedBeforeLaunch(
    _ arguments: [String]
  ) throws -> (CommandLine.Result, CommandLine) {
    var cli = try CommandLine(bundled: false)
    let deck = try cli.write("test.jsonl", TestDeck.make(facts: 5, words: 5))
    cli.program = "/bin/sh"
    let command = ([CommandLine.binary, "--deck", deck] + arguments).map { "'\($0)'" }
      .joined(separator: " ")
    let result = try cli.run(
      ["-c", "printf '\\033[C\\033[Cq' | script -qfec \"\(command)\" /dev/null"], limit: 60)
    cli.program = CommandLine.binary
    return (result, cli)
  }

  /// The reactions of the history, oldest first.
  private func reactions(_ cli: CommandLine) throws -> [String?] {
    let deck = cli.home + "/test.jsonl"
    let result = try cli.run(["--deck", deck, "history", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.objects.sorted { ($0["index"] as! Int) < ($1["index"] as! Int) }
      .map { $0["reaction"] as? String }
  }

  @Test func linearReadsKeysTypedBeforeItStarted() throws {
    let (result, cli) = try typedBeforeLaunch(["--linear"])
    defer { cli.remove() }
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.components(separatedBy: "Swiped right (TFU").count - 1 == 2,
      "\(result.stdout)")
    // Each card swiped was printed before its swipe.
    // `script` ends lines with CR LF, one Character in Swift.
    let lines = result.stdout.split(whereSeparator: \.isNewline)
    let keyLines = lines.indices.filter { lines[$0].contains("Keys: → TFU") }
    let swipes = lines.indices.filter { lines[$0].contains("Swiped right") }
    #expect(keyLines.count >= 2 && swipes.count == 2, "\(result.stdout)")
    if keyLines.count >= 2 && swipes.count == 2 {
      #expect(keyLines[0] < swipes[0] && keyLines[1] < swipes[1], "\(result.stdout)")
    }
    #expect(try reactions(cli).prefix(2) == ["TFU", "TFU"])
  }

  @Test func theAppReadsKeysTypedBeforeItStarted() throws {
    let (result, cli) = try typedBeforeLaunch([])
    defer { cli.remove() }
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try reactions(cli).prefix(2) == ["TFU", "TFU"])
  }

  /// Every fetch takes 3 s: Right pressed while "Loading…" shows swipes nothing, the hint line
  /// says so, and the card that comes stays unswiped in the history.
  @Test func aSwipeOnThePlaceholderRecordsNothing() async throws {
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5),
      environment: ["CTFO_TEST_FETCH_DELAY_MS": "3000"])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Loading")
    try app.tmux.send("Right")
    try await app.tmux.waitFor(text: "Nothing swiped: the next card is still loading")
    let first = try await app.waitForShownCard(after: nil)
    #expect(first.position == "#1")
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    let recorded = try app.recordedReactions()
    #expect(recorded.count == 1, "\(recorded)")
    #expect(recorded.values.allSatisfy { $0 == nil }, "\(recorded)")
  }
}
