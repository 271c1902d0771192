import Foundation
import Testing

/// Any number of `ctfo` processes share one home: the app keeps swiping while `ctfo next`
/// runs beside it, and history holds every swipe with its reaction.
@Suite(.timeLimit(.minutes(5))) struct SharedHomeTests {
  private let deck = TestDeck.make(facts: 60, words: 60)

  /// On screen: 31 swipes each bring a new title while 200 `ctfo next` run on the same home,
  /// then "exit=0" after q. Not the screen: `ctfo history --json` holds every swipe with the
  /// reaction of its key, one unreacted row per run of next and for the last card, every row
  /// numbered once.
  @Test func anAppSwipingBesideTwoHundredRunsOfNextLosesNothing() async throws {
    let app = try AppUnderTest(deck: deck)
    defer { app.stop() }
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = app.home.path
    let deckFile = app.home.appendingPathComponent("test.jsonl").path
    var title = try await app.waitForCard(after: nil)

    let runner = cli
    let runs = Task.detached { () throws -> [Int32] in
      try (0..<200).map { _ in try runner.run(["--deck", deckFile, "next"]).status }
    }
    var swiped: [(title: String, reaction: String)] = []
    let keys = [("Right", "TFU"), ("Left", "TIFB"), ("Up", "CTFO")]
    for i in 0..<30 {
      let (key, reaction) = keys[i % keys.count]
      try app.tmux.send(key)
      swiped.append((title, reaction))
      title = try await app.waitForCard(after: title)
    }
    let statuses = try await runs.value
    #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
    // One more swipe after the runs ended: the app still answers.
    try app.tmux.send("Right")
    swiped.append((title, "TFU"))
    title = try await app.waitForCard(after: title)
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")

    let history = try cli.run(["--deck", deckFile, "history", "-n", "1000", "--json"])
    #expect(history.status == 0, "\(history.stderr)")
    let rows = history.objects
    #expect(rows.filter { $0["reaction"] is NSNull }.count == 200 + 1, "200 runs and the last card")
    let indices = rows.compactMap { $0["index"] as? Int }
    #expect(Set(indices).count == indices.count, "every row has its own number")
    for (title, reaction) in swiped {
      #expect(
        rows.contains { $0["title"] as? String == title && $0["reaction"] as? String == reaction },
        "\(title) swiped \(reaction)")
    }
    #expect(rows.filter { $0["reaction"] is String }.count == swiped.count)
  }
}
