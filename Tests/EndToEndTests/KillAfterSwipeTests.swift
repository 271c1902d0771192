import Foundation
import TestFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// With `--no-motion` a swipe draws the next card before its write commits (DECISIONS.md, "A
/// swipe never waits for its commit"); a SIGKILL right after still loses nothing shown as
/// swiped.
@Suite(.serialized, .timeLimit(.minutes(10))) struct KillAfterSwipeTests {
  private let deck = TestDeck.make(facts: 60, words: 60)

  /// The history as `ctfo history --json` gives it: each row's title and reaction, by the
  /// number the app shows ("#7" is 7).
  private func history(_ home: URL) throws -> [Int: (title: String, reaction: String?)] {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = home.path
    let deck = home.appendingPathComponent("test.jsonl").path
    let result = try cli.run(["--deck", deck, "history", "-n", "100000", "--json"])
    guard result.status == 0 else {
      throw TmuxDriver.Failure(description: "ctfo history failed: \(result.stderr)")
    }
    var rows: [Int: (title: String, reaction: String?)] = [:]
    for row in result.objects {
      guard let index = row["index"] as? Int, let title = row["title"] as? String else { continue }
      rows[index] = (title, row["reaction"] as? String)
    }
    return rows
  }

  /// On screen: in each of 15 runs on one home, 1 to 6 swipes, each seen answered by the next
  /// card (title and number), then, at times after one more key, a SIGKILL ("exit=137") as
  /// soon as the last card is seen. Not the screen: `ctfo history --json` lists every card
  /// shown as swiped under the number it was shown with, with its reaction. The plan comes
  /// from a printed seed (CTFO_TEST_SEED replays it).
  @Test func aSigkillRightAfterTheSwipesLosesNothingShownAsSwiped() async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctfo-kill-swipe-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    let seed = TestSeed.fromEnvironment()
    print("KillAfterSwipeTests: CTFO_TEST_SEED=\(seed)")
    var random = SeededGenerator(seed: seed)
    let keys = ["Right", "Left", "Up"]
    for run in 0..<15 {
      let at = "seed \(seed) run \(run)"
      let app = try AppUnderTest(deck: deck, home: home, arguments: ["--no-motion"])
      defer { app.tmux.kill() }
      var shown = try await app.waitForShownCard(after: nil)
      var swiped: [(card: AppUnderTest.ShownCard, reaction: String)] = []
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let key = keys.randomElement(using: &random)!
        try app.tmux.send(key)
        let next = try await app.waitForShownCard(after: shown)
        swiped.append((shown, KillPlan.reaction[key]!))
        shown = next
      }
      if Bool.random(using: &random) { try app.tmux.send(keys.randomElement(using: &random)!) }
      let pid = try #require(try app.appPID(), "\(at): the app's pid")
      #expect(kill(pid, SIGKILL) == 0)
      try await app.tmux.waitFor(text: "exit=137")

      let rows = try history(home)
      for (card, reaction) in swiped {
        let number = Int(card.position.dropFirst()) ?? -1
        let row = rows[number]
        let shown = "\(card.title) shown as \(card.position) and swiped \(reaction)"
        #expect(
          row?.title == card.title && row?.reaction == reaction,
          "\(at): \(shown); the row: \(String(describing: row))")
      }
    }
  }
}
