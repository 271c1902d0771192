import Foundation
import TestFixtures
import Testing

/// Analytics from the real app and commands to the real `ctfo-server`:
/// nothing lost or doubled through SIGKILLs, nothing recorded when the user says no.
@Suite(.serialized) struct AnalyticsAppTests {
  private func home(config: String) throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try config.write(
      to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    return home
  }

  /// Twenty SIGKILLs at random moments of swipes, undos and flushes (some while the server
  /// holds a batch or drops the answer after committing it), then a last run that quits. The
  /// server then holds each recorded event once: every final reaction has exactly one event,
  /// an undone swipe none, and the outbox is empty.
  @Test func sigkillDuringSwipesAndFlushesLosesAndDoublesNothing() async throws {
    // The server's cards are titled as the test deck's, so the screen reader knows them.
    let serverDeck = """
      {"deck":"s","types":{"srv":{"label":"Server"}}}
      {"id":"s1","type":"srv","title":"Fact 91","body":"From the server."}
      {"id":"s2","type":"srv","title":"Fact 92","body":"Also from the server."}

      """
    let server = try ServerProcess(deck: serverDeck, options: ["--test-faults"])
    defer { server.stop() }
    let home = try home(config: "server = \"\(server.url)\"\nundo-limit = 1\n")
    defer { try? FileManager.default.removeItem(at: home) }
    let database = home.appendingPathComponent("state.sqlite").path
    let seed = TestSeed.fromEnvironment()
    var rng = SeededGenerator(seed: seed)
    print("AnalyticsAppTests.sigkillDuringSwipesAndFlushes: CTFO_TEST_SEED=\(seed)")
    let faults = [
      "[]", #"[{"path":"/v1/events","action":"closeAfterCommit","times":1}]"#,
      #"[{"path":"/v1/events","delayMs":400,"times":1}]"#,
    ]
    let deck = TestDeck.make(facts: 40, words: 40)
    for run in 0..<20 {
      try server.faults(faults.randomElement(using: &rng)!)
      let app = try AppUnderTest(deck: deck, home: home)
      defer { app.tmux.kill() }
      // Cards are told apart by title and history position: a small type deals a title again.
      var shown = try await app.waitForShownCard(after: nil)
      let keys = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
        ["Right", "Left", "Up", "u"].randomElement(using: &rng)!
      }
      for key in keys {
        try app.tmux.send(key)
        guard key == "u" else {
          shown = try await app.waitForShownCard(after: shown)
          continue
        }
        // An undo brings the last card back, or says there is nothing to undo.
        let screen = try await app.tmux.waitFor("the undo") { screen in
          screen.contains { $0.contains("Nothing to undo") }
            || AppUnderTest.shownCard(screen).map { $0 != shown } ?? false
        }
        shown = AppUnderTest.shownCard(screen) ?? shown
      }
      try app.tmux.send(["Right", "Left", "Up"].randomElement(using: &rng)!)
      if Bool.random(using: &rng) { _ = try app.tmux.screen() }
      let pid = try #require(try app.appPID(), "run \(run): the app's pid")
      #expect(kill(pid, SIGKILL) == 0)
      try await app.tmux.waitFor(text: "exit=137")
    }
    try server.faults("[]")
    // The last run: the events the killed runs left go (a wait a failure asked for ends
    // first), then q sends the quit's own.
    let app = try AppUnderTest(deck: deck, home: home)
    defer { app.stop() }
    _ = try await app.waitForShownCard(after: nil)
    try await Poll.until(
      "the outbox to empty", seconds: 90,
      detail: {
        "; the sinks: "
          + ((try? sqlite(database, "SELECT * FROM analytics_sinks").joined(separator: "; ")) ?? "")
      }
    ) {
      try sqlite(database, "SELECT COUNT(*) FROM analytics_events") == ["0"]
    }
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")

    #expect(try sqlite(database, "SELECT COUNT(*) FROM analytics_events") == ["0"])
    #expect(try sqlite(database, "SELECT COUNT(*) FROM analytics_dead") == ["0"])
    let serverDB = server.data + "/server.sqlite"
    let delivered = try sqlite(database, "SELECT delivered FROM analytics_sinks WHERE sink = 'ctfo'")
    let distinct = try sqlite(serverDB, "SELECT COUNT(*) FROM events WHERE sink = 'ctfo'")
    #expect(distinct == delivered, "the server holds each event delivered once")
    let final = try sqlite(
      database, "SELECT card_id || ' ' || reaction FROM reaction_events ORDER BY 1")
    let reported = try sqlite(
      serverDB,
      "SELECT json_extract(payload, '$.properties.card_id') || ' ' || name FROM events "
        + "WHERE sink = 'ctfo' AND name IN ('CTFO', 'TFU', 'TIFB') ORDER BY 1")
    #expect(!final.isEmpty)
    print("AnalyticsAppTests: \(final.count) final reactions, \(distinct) events delivered once")
    #expect(reported == final, "each final reaction once, no undone swipe")
    let counts = try server.operate(["events"])
    let total = counts.split(separator: "\n").compactMap { $0.split(separator: " ").last }
      .compactMap { Int($0) }.reduce(0, +)
    #expect([String(total)] == distinct, "ctfo-server events counts each name: \(counts)")
    #expect(counts.contains("AppStart ") && counts.contains("Identify "), "\(counts)")
  }

  /// `ctfo status` says what is queued per sink; `DO_NOT_TRACK=1`, `--no-analytics` and
  /// `analytics = false` record nothing at all; `ctfo-server events` counts each name.
  @Test func statusShowsTheQueueAndDoNotTrackRecordsNothing() throws {
    let server = try ServerProcess(deck: ServerAppTests.serverDeck)
    defer { server.stop() }
    var cli = try CommandLine()
    defer { cli.remove() }
    let serverFlag = ["--server", server.url]
    cli.environment["DO_NOT_TRACK"] = "1"
    #expect(try cli.run(serverFlag + ["disable", "fact"]).status == 0)
    let off = try cli.run(serverFlag + ["status"])
    #expect(off.stdout.contains("analytics: off"), "\(off.stdout)")
    cli.environment.removeValue(forKey: "DO_NOT_TRACK")
    #expect(try cli.run(serverFlag + ["--no-analytics", "enable", "fact"]).status == 0)
    let database = cli.home + "/state.sqlite"
    #expect(try sqlite(database, "SELECT COUNT(*) FROM analytics_events") == ["0"])

    #expect(try cli.run(serverFlag + ["disable", "fact"]).status == 0)
    let names = try sqlite(database, "SELECT name FROM analytics_events ORDER BY seq")
    #expect(names == ["Identify", "SettingsChanged"])
    let status = try cli.run(serverFlag + ["status"])
    #expect(
      status.stdout.contains("analytics to CTFO server: 2 queued, 0 delivered"), "\(status.stdout)")
    let json = try cli.run(serverFlag + ["status", "--json"])
    #expect(json.stdout.contains(#""sink":"ctfo","queued":2"#), "\(json.stdout)")
  }
}
