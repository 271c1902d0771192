import Foundation
import Testing

/// The app and the commands against a failing `ctfo-server`: the real
/// server binary with its test fault switch, never a mock.
@Suite(.serialized) struct ServerFaultTests {
  /// A home whose config names `server`, pulled once so that the server's cards are held.
  private func home(server: ServerProcess, pull: Bool = true) throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try "server = \"\(server.url)\"\n".write(
      to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    if pull {
      var cli = try CommandLine(bundled: false)
      cli.environment["CTFO_HOME"] = home.path
      let pulled = try cli.run(["pull"])
      guard pulled.status == 0 else {
        throw TmuxDriver.Failure(description: "ctfo pull: \(pulled.stderr)")
      }
    }
    return home
  }

  static let deck = """
    {"deck":"s","types":{"news":{"label":"News"}}}
    {"id":"n1","type":"news","title":"News 01","body":"A long body that the pull leaves out."}
    {"id":"n2","type":"news","title":"News 02","body":"Short."}
    {"id":"n3","type":"news","title":"News 03","body":"Short."}
    {"id":"n4","type":"news","title":"News 04","body":"Short."}

    """

  /// A card pulled without its body whose fetch fails (500; no answer within the 2 s deadline;
  /// a reset connection) is skipped for good: over two rounds of its type it never shows, and
  /// the server sees exactly one request for it.
  @Test(arguments: [
    #"{"path":"/v1/cards/n1","status":500}"#, #"{"path":"/v1/cards/n1","delayMs":4000}"#,
    #"{"path":"/v1/cards/n1","action":"reset"}"#,
  ])
  func aBodyThatCannotBeFetchedSkipsItsCardAfterOneRequest(rule: String) async throws {
    let server = try ServerProcess(
      deck: Self.deck, options: ["--pull-body-limit", "10", "--test-faults"])
    defer { server.stop() }
    try server.faults("[\(rule)]")
    let app = try AppUnderTest(deck: "", home: try home(server: server))
    defer { app.stop() }
    var seen: [String] = []
    var previous: AppUnderTest.ShownCard?
    for _ in 0..<6 {
      let shown = try await app.tmux.waitFor("a card after \(previous?.title ?? "none")") {
        screen in
        screen.contains { $0.contains("→ TFU") }
          && Self.shown(screen).map { $0 != previous } ?? false
      }
      let card = Self.shown(shown)!
      seen.append(card.title)
      previous = card
      try app.tmux.send("Right")
    }
    #expect(!seen.contains("News 01"), "\(seen)")
    #expect(Set(seen) == ["News 02", "News 03", "News 04"], "\(seen)")
    let log = try server.log()
    #expect(log.byPath["/v1/cards/n1"] == 1, "\(log.byPath)")
  }

  private static func shown(_ screen: [String]) -> AppUnderTest.ShownCard? {
    AppUnderTest.shownCard(screen, title: #"News \d\d"#)
  }

  /// A server that holds a pull 30 s (the app gives up after 10): the app swipes on meanwhile
  /// (six swipes, each with an `r`, typed at once while the launch pull is in flight, all drawn
  /// while it is held), `r` asks for no second request, and the server never has more than one
  /// of the link's requests in flight, beside at most one batch of events (a pull never waits for
  /// a batch, so the launch's first batch may go beside the launch pull).
  @Test func aSlowServerNeverHoldsASwipe() async throws {
    let server = try ServerProcess(deck: Self.deck, options: ["--test-faults"])
    defer { server.stop() }
    try server.faults(#"[{"path":"/v1/pull","delayMs":30000}]"#)
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 10, words: 0), home: try home(server: server, pull: false))
    defer { app.stop() }
    let first = try await app.waitForShownCard(after: nil)
    try await Poll.until("the launch pull to reach the server") {
      try server.log().inFlight == 1
    }
    let number = { (card: AppUnderTest.ShownCard) in Int(card.position.dropFirst()) ?? -1 }
    try app.tmux.send(Array(repeating: ["r", "Right"], count: 6).flatMap { $0 })
    try await app.tmux.waitFor("six swipes") { screen in
      AppUnderTest.shownCard(screen).map { number($0) == number(first) + 6 } ?? false
    }
    let log = try server.log()
    #expect(log.inFlight == 1, "every swipe was drawn while the pull was held")
    #expect(log.byPath["/v1/pull"] == 1, "r while a pull runs is folded into it")
    #expect(log.maxInFlight <= 2)
  }

  /// A `302` or `307` from the server is never followed: the second server, where it points,
  /// sees no request at all (so never the token), and the pull fails with exit status 69.
  @Test(arguments: ["/v1/auth", "/v1/pull"])
  func aRedirectIsNeverFollowed(path: String) throws {
    let second = try ServerProcess(deck: Self.deck, options: ["--test-faults"])
    defer { second.stop() }
    let first = try ServerProcess(deck: Self.deck, options: ["--test-faults"])
    defer { first.stop() }
    let status = path == "/v1/auth" ? 307 : 302
    try first.faults(
      #"[{"path":"\#(path)","status":\#(status),"location":"\#(second.url)\#(path)"}]"#)
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let pulled = try cli.run(["--server", first.url, "pull"])
    #expect(pulled.status == 69, "\(pulled.stderr)")
    #expect(pulled.stderr.contains("redirect"), "\(pulled.stderr)")
    #expect(try second.log().total == 0)
    #expect(try first.log().byPath[path] == 1)
  }

  /// The state database, which holds the token, and its WAL are readable by their owner only.
  @Test func theTokensFileIsReadableByItsOwnerOnly() throws {
    let server = try ServerProcess(deck: Self.deck)
    defer { server.stop() }
    let home = try home(server: server)
    defer { try? FileManager.default.removeItem(at: home) }
    var modes: [String: Int] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: home.path)
    where name.hasPrefix("state.sqlite") {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: home.appendingPathComponent(name).path)
      modes[name] = (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }
    #expect(modes["state.sqlite"] == 0o600, "\(modes)")
    #expect(modes.values.allSatisfy { $0 == 0o600 }, "\(modes)")
  }
}
