import Foundation
import Testing

/// The app and `ctfo next` with a server: the real `ctfo-server` binary on loopback.
@Suite(.serialized) struct ServerAppTests {
  static let serverDeck = """
    {"deck":"s","types":{"news":{"label":"News","colour":"yellow"}}}
    {"id":"n1","type":"news","title":"News 01","body":"From the server."}
    {"id":"n2","type":"news","title":"News 02","body":"Also from the server."}

    """

  /// A config file naming `url` as the server, in `home`.
  private func configure(_ home: URL, server url: String) throws {
    try "server = \"\(url)\"\n".write(
      to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
  }

  @Test func theAppPullsAtLaunchAndShowsTheServersNotificationUntilDismissed() async throws {
    let server = try ServerProcess(deck: Self.serverDeck)
    defer { #expect(server.stop() == 0, "SIGTERM ends the server gracefully") }
    try server.operate(["notify", "Welcome to the server"])
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try configure(home, server: server.url)
    let app = try AppUnderTest(deck: TestDeck.make(facts: 3, words: 0), home: home)
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Welcome to the server")
    _ = try await app.waitForShownCard(after: nil)
    try app.tmux.send("c")
    try await app.tmux.waitFor("the notice to go") { !$0.contains { $0.contains("Welcome") } }
  }

  /// A pull is a live source. The launch pull's cards show in the same run (the app
  /// starts with no card at all), a later pull's new card comes up and its removed one never
  /// does again.
  @Test func aPullsCardsReachTheRunningAppAndItsRemovedCardsLeaveIt() async throws {
    var server = try ServerProcess(deck: Self.serverDeck)
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try configure(home, server: server.url)
    let app = try AppUnderTest(deck: TestDeck.make(facts: 0, words: 0), home: home)
    defer { app.stop() }
    let news = #"News \d\d"#
    func settled(after previous: AppUnderTest.ShownCard?) async throws -> AppUnderTest.ShownCard {
      let screen = try await app.tmux.waitFor("a card after \(previous?.title ?? "none")") {
        $0.contains { $0.contains("→ TFU") }
          && AppUnderTest.shownCard($0, title: news).map { $0 != previous } ?? false
      }
      return AppUnderTest.shownCard(screen, title: news)!
    }
    var card = try await settled(after: nil)
    // The server drops News 01 and adds News 03; `r` pulls.
    #expect(server.stop() == 0)
    server = try ServerProcess(
      deck: Self.serverDeck.replacingOccurrences(
        of: #"{"id":"n1","type":"news","title":"News 01","body":"From the server."}"#,
        with: #"{"id":"n3","type":"news","title":"News 03","body":"New on the server."}"#),
      options: ["--test-faults"], data: server.data, port: server.port)
    defer { #expect(server.stop() == 0, "SIGTERM ends the server gracefully") }
    try app.tmux.send("r")
    // The swipes start once the server has answered the pull `r` asked for: on a busy machine
    // the link's thread (nice 10) may take a while to send it, and the swipes would run out
    // before it comes.
    let restarted = server
    try await Poll.until(
      "the pull asked with r to be answered", seconds: 30,
      detail: { "; the app shows:\n" + ((try? app.tmux.screen())?.joined(separator: "\n") ?? "") }
    ) {
      let log = try restarted.log()
      return (log.byPath["/v1/pull"] ?? 0) >= 1 && log.inFlight == 0
    }
    // News 03 comes up once the pull applied; from then on News 01 never does.
    var after: [String] = []
    for _ in 0..<30 {
      try app.tmux.send("Right")
      card = try await settled(after: card)
      if card.title == "News 03" || !after.isEmpty { after.append(card.title) }
      if after.count >= 8 { break }
    }
    #expect(
      after.first == "News 03",
      "News 03 never came up; the app shows:\n\((try? app.tmux.screen())?.joined(separator: "\n") ?? "")"
    )
    #expect(!after.contains("News 01"), "\(after)")
  }

  @Test func withTheServerDownTheAppSwipesFromItsCacheAndSaysOffline() async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try configure(home, server: "http://127.0.0.1:1")
    let app = try AppUnderTest(deck: TestDeck.make(facts: 5, words: 0), home: home)
    defer { app.stop() }
    let first = try await app.waitForShownCard(after: nil)
    try await app.tmux.waitFor(text: "offline")
    try app.tmux.send("Right")
    _ = try await app.waitForShownCard(after: first)
  }

  @Test func nextPrintsTheServersCardsAfterAPullAndStillWithTheServerDown() throws {
    let server = try ServerProcess(deck: Self.serverDeck)
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let pulled = try cli.run(["--server", server.url, "pull"])
    #expect(pulled.status == 0 && pulled.stdout.contains("2 cards"), "\(pulled.stderr)")
    #expect(server.stop() == 0)
    cli.environment["CTFO_HOME"] = cli.home
    let next = try cli.run(["--server", server.url, "next", "-n", "2", "--json"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(Set(next.objects.compactMap { $0["id"] as? String }) == ["n1", "n2"])
    let pullAgain = try cli.run(["--server", server.url, "pull"])
    #expect(pullAgain.status == 69 && pullAgain.stderr.contains("cannot connect"))
    let status = try cli.run(["--server", server.url, "status"])
    #expect(
      status.stdout.contains("cards from the server: 2") && status.stdout.contains("cannot connect")
    )
  }

  /// A long card comes in a pull without its body; the app fetches it while it prepares the
  /// card, and the server sees one request for it.
  @Test func aCardPulledWithoutItsBodyIsShownWhole() async throws {
    let body = "The whole body of a long card. " + String(repeating: "More. ", count: 10)
    let deck = """
      {"deck":"s","types":{"news":{"label":"News"}}}
      {"id":"n1","type":"news","title":"News 01","body":"\(body)"}

      """
    let server = try ServerProcess(
      deck: deck, options: ["--pull-body-limit", "20", "--test-faults"])
    defer { server.stop() }
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try configure(home, server: server.url)
    var cli = try CommandLine(bundled: false)
    cli.environment["CTFO_HOME"] = home.path
    #expect(try cli.run(["pull"]).status == 0)
    let withoutBody = try cli.run(["next", "-n", "1", "--json"])
    #expect(withoutBody.status != 0, "ctfo next never waits for the network: no card to deal")
    let app = try AppUnderTest(deck: "", home: home)
    defer { app.stop() }
    try await app.tmux.waitFor(text: "The whole body of a long card.")
    #expect(try server.log().byPath["/v1/cards/n1"] == 1)
  }
}
