import Foundation
import Testing

/// `ctfo stats` and the app's stats screen (`i`) on a home where the app swiped cards: the
/// screen shows the counts, and `--json` gives the numbers a count by SQL gives.
@Suite(.serialized, .timeLimit(.minutes(5))) struct StatsTests {
  /// The app swipes up, up, right and left on a deck of facts and words, shows the stats, and
  /// quits on the fifth card.
  @Test func theScreenAndTheJSONCountWhatTheAppRecorded() async throws {
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 6, words: 4), environment: ["TZ": "UTC"])
    defer { app.stop() }
    var title = try await app.waitForCard(after: nil)
    for key in ["Up", "Up", "Right", "Left"] {
      try app.tmux.send(key)
      title = try await app.waitForCard(after: title)
    }
    try app.tmux.send("i")
    try await app.tmux.waitFor(text: "4 swipes of 5 cards shown")
    try await app.tmux.waitFor(text: "1 day in a row with a swipe")
    let screen = try app.tmux.screen()
    #expect(screen.contains { $0.contains("Swipes a day, the last 14 days") })
    #expect(screen.contains { $0.contains("liked") && $0.contains("round") })
    try app.tmux.send("Escape")
    try await app.tmux.waitFor(text: title)
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")

    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = app.home.path
    cli.environment["TZ"] = "UTC"
    let deck = app.home.appendingPathComponent("test.jsonl").path
    let result = try cli.run(["--deck", deck, "stats", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let stats = try #require(result.objects.first)
    let database = app.home.appendingPathComponent("state.sqlite").path
    func count(_ query: String) throws -> Int { Int(try sqlite(database, query).first ?? "") ?? -1 }
    #expect(stats["swipes"] as? Int == 4)
    #expect(stats["swipes"] as? Int == (try count("SELECT count(*) FROM history WHERE reaction IS NOT NULL")))
    #expect(stats["shown"] as? Int == (try count("SELECT count(*) FROM history")))
    #expect(stats["streak"] as? Int == 1)
    let days = try #require(stats["days"] as? [[String: Any]])
    #expect(days.count == 14)
    #expect(
      days.last?["swipes"] as? Int
        == (try count(
          "SELECT count(*) FROM history WHERE reaction IS NOT NULL "
            + "AND date(shown_at, 'unixepoch') = date('now')")))
    #expect(days.last?["date"] as? String == (try sqlite(database, "SELECT date('now')").first))
    let types = try #require(stats["types"] as? [[String: Any]])
    #expect(Set(types.compactMap { $0["type"] as? String }) == ["fact", "word"])
    for type in types {
      let name = try #require(type["type"] as? String)
      for reaction in ["CTFO", "TFU", "TIFB"] {
        #expect(
          type[reaction.lowercased()] as? Int
            == (try count(
              "SELECT count(*) FROM history WHERE type = '\(name)' AND reaction = '\(reaction)'")),
          "\(name) \(reaction)")
      }
      #expect(
        type["round_seen"] as? Int
          == (try count("SELECT count(*) FROM round_cards WHERE type = '\(name)'")), "\(name)")
      #expect(type["cards"] as? Int == (name == "fact" ? 6 : 4))
    }

    let text = try cli.run(["--deck", deck, "stats", "--width", "40", "--ascii"])
    #expect(text.status == 0)
    #expect(text.stdout.contains("4 swipes of 5 cards shown"))
    #expect(text.stdout.utf8.allSatisfy { $0 < 0x80 }, "--ascii writes ASCII only")
    #expect(text.stdout.split(separator: "\n").allSatisfy { $0.count <= 40 })
  }

  @Test func aNewHomeHasNothingYet() throws {
    var cli = try CommandLine()
    defer { cli.remove() }
    let text = try cli.run(["stats"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("Nothing yet"))
    let json = try cli.run(["stats", "--json"])
    let stats = try #require(json.objects.first)
    #expect(stats["swipes"] as? Int == 0 && stats["shown"] as? Int == 0)
    #expect(try cli.run(["stats", "--width", "3"]).status == 64)
  }
}
