import Foundation
import Testing

/// Keys under "Too small" and keys typed ahead, in the release binary.
@Suite(.serialized, .timeLimit(.minutes(5))) struct KeysTests {
  private let deck = TestDeck.make(facts: 10, words: 10)

  /// A command line on the app's home.
  private func commandLine(for app: AppUnderTest) throws -> CommandLine {
    var cli = try CommandLine(bundled: false)
    cli.environment["CTFO_HOME"] = app.home.path
    return cli
  }

  /// The app's history, newest first, as `ctfo history --json` prints it.
  private func history(_ cli: CommandLine, _ app: AppUnderTest) throws -> [[String: Any]] {
    let deckFile = app.home.appendingPathComponent("test.jsonl").path
    let result = try cli.run(["--deck", deckFile, "history", "-n", "100", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.objects
  }

  @Test func rightAtTenByFourSwipesNothing() async throws {
    let app = try AppUnderTest(deck: deck, width: 10, height: 4)
    defer { app.stop() }
    let cli = try commandLine(for: app)
    defer { cli.remove() }
    try await app.tmux.waitFor(text: "Too")
    try await Poll.until("the hidden card's row is written") { try !history(cli, app).isEmpty }
    let before = try app.bytesReadByTheRunLoop()
    try app.tmux.send("Right")
    // The key is read before the resize, which the run loop would handle first if both waited.
    try await Poll.until("the app reads the key") { try app.bytesReadByTheRunLoop() >= before + 3 }
    try app.tmux.resize(width: 80, height: 24)
    let shown = try await app.waitForShownCard(after: nil)
    #expect(shown.position == "#1")
    let rows = try history(cli, app)
    #expect(rows.count == 1)
    #expect(rows.allSatisfy { $0["reaction"] is NSNull }, "\(rows)")
  }

  @Test func fourKeysTypedAheadSwipeFourCards() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let cli = try commandLine(for: app)
    defer { cli.remove() }
    let first = try await app.waitForShownCard(after: nil)
    #expect(first.position == "#1")
    try app.tmux.type("llll")
    try await app.tmux.waitFor("the fifth card") { AppUnderTest.shownCard($0)?.position == "#5" }
    let rows = try history(cli, app).sorted { ($0["index"] as! Int) < ($1["index"] as! Int) }
    #expect(rows.count == 5)
    #expect(rows.prefix(4).allSatisfy { $0["reaction"] as? String == "TFU" }, "\(rows)")
    #expect(rows.last?["reaction"] is NSNull, "\(rows)")
  }

  /// Arrow keys sent as `ESC [ X` (not the `ESC O X` terminfo lists for keypad mode) still
  /// swipe: right, then left.
  @Test func arrowsSentInTheOtherFormStillSwipe() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    let cli = try commandLine(for: app)
    defer { cli.remove() }
    _ = try await app.waitForShownCard(after: nil)
    try app.tmux.type("\u{1B}[C")
    try await app.tmux.waitFor("the second card") { AppUnderTest.shownCard($0)?.position == "#2" }
    try app.tmux.type("\u{1B}[D")
    try await app.tmux.waitFor("the third card") { AppUnderTest.shownCard($0)?.position == "#3" }
    let rows = try history(cli, app).sorted { ($0["index"] as! Int) < ($1["index"] as! Int) }
    #expect(rows.map { $0["reaction"] as? String } == ["TFU", "TIFB", nil], "\(rows)")
  }

  /// config.toml binds swipe-right to d and quit to x. On screen: the hint
  /// bar says "d TFU" and "x quit"; l and q, read by the app, leave the card where it is; d
  /// brings the next card and x quits ("exit=0"). Off screen: the history records TFU for the
  /// first card.
  @Test func reboundKeysSwipeAndQuit() async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-keys-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try "[keys]\nswipe-right = \"d\"\nquit = [\"x\"]\n".write(
      to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    let app = try AppUnderTest(deck: deck, home: home)
    defer { app.stop() }
    let screen = try await app.tmux.waitFor("the first card") {
      $0.contains { $0.contains("d TFU") && $0.contains("x quit") }
        && AppUnderTest.shownCard($0) != nil
    }
    let first = try #require(AppUnderTest.shownCard(screen))
    let before = try app.bytesReadByTheRunLoop()
    try app.tmux.type("lq")
    try await Poll.until("the app reads l and q") { try app.bytesReadByTheRunLoop() >= before + 2 }
    #expect(AppUnderTest.shownCard(try app.tmux.screen()) == first)
    try app.tmux.type("d")
    try await app.tmux.waitFor("the second card") { AppUnderTest.shownCard($0)?.position == "#2" }
    try app.tmux.type("x")
    try await app.tmux.waitFor(text: "exit=0")
    #expect(try app.recordedReactions()[first.title] == .some("TFU"))
  }
}
