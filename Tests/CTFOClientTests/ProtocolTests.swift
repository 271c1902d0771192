import App
import CTFOClient
import CTFOProgram
import CTFOServer
import CTFOWire
import FeedCore
import Store
import TestFixtures
import Testing

/// ctfo.md's protocol to the letter, against the real server on loopback: the
/// user's status kept and set per install, feeds that switch cleanly, every notification
/// shown in turn.
@Suite(.timeLimit(.minutes(1)))
struct ProtocolTests {
  typealias ClientHome = ClientServerTests.ClientHome

  /// A pull as `ctfo pull` and the app make it (`ServerPull`), of `feed`.
  private func pull(
    _ server: LiveServer, _ home: ClientHome, feed: PullFeed
  ) async throws -> ServerPull.Outcome {
    var configuration = Configuration()
    configuration.server = server.endpoint
    configuration.feed = feed
    let pull = try #require(ServerPull(configuration: configuration, database: home.database))
    let outcome = try await onThread { pull.run(deadline: .now + .request) }
    if case .failed(let problem) = outcome { Issue.record("the pull failed: \(problem)") }
    return outcome
  }

  @Test func theUsersStatusIsKeptAndTheOperatorSetsItPerInstall() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    let status = { try home.store.status(at: APIClient.systemMilliseconds()) }
    _ = try await pull(server, home, feed: .hot)
    #expect(try status().userStatus == "active", "the default the server sends")
    let install = try #require(try status().installId)
    #expect(try server.store.setStatus(install: install, to: "premium"))
    #expect(try !server.store.setStatus(install: "nobody", to: "premium"), "no such install")
    guard case .applied = try await pull(server, home, feed: .hot) else {
      Issue.record("the status change came as a 304")
      return
    }
    #expect(try status().userStatus == "premium")
    // A pull that changes nothing keeps it too.
    #expect(try await pull(server, home, feed: .hot) == .unchanged)
    #expect(try status().userStatus == "premium")
    #expect(try status().lastPullAt != nil)
  }

  @Test func switchingFeedsBothWaysKeepsOnlyTheScoresOfTheFeedPulled() async throws {
    let server = try await LiveServer(cards: LiveServer.cards(6))
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    #expect(try server.store.score(cardId: "c3", score: 1.9, at: 100))
    _ = try await pull(server, home, feed: .hot)
    #expect(try home.dealt(1, types: ["news"]) == ["c3"])
    #expect(
      try server.store.load(
        cards: LiveServer.cards(6) + [Wire.Card(id: "late", type: "news", body: "Late.")],
        types: LiveServer.types) == LoadReport(added: 1))
    // hot to recent: every card scored by its time of publication, the newest first.
    _ = try await pull(server, home, feed: .recent)
    #expect(try home.store.scores(of: ["news"]).count == 4)
    #expect(try home.dealt(1, types: ["news"]) == ["late"])
    // recent to hot: the operator's score alone, no time of publication left to outrank it.
    _ = try await pull(server, home, feed: .hot)
    let scores = try home.store.scores(of: ["news"])
    #expect(scores.map(\.id) == ["c3"] && scores.first?.score.value == 1.9, "\(scores)")
    #expect(try home.dealt(1, types: ["news"]) == ["c3"])
  }

  @Test func afterTheNewestNoticeIsDismissedTheNextShows() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    try server.store.notify(id: "n1", text: "Older", at: 100)
    try server.store.notify(id: "n2", text: "Newer", at: 200)
    let home = try ClientHome(server: server)
    _ = try await pull(server, home, feed: .hot)
    func line() throws -> ServerLine {
      let notices = try home.store.notices(at: 300)
      return ServerLine(notices: notices.map { ServerLine.Notice(id: $0.id, text: $0.text) })
    }
    var state = Fixtures.showing(Card(id: "x", type: "fact", body: "Body."))
    _ = state.reduce(.serverChanged(try line()))
    #expect(state.server.notice?.text == "Newer")
    #expect(state.reduce(.key(.character("c"))) == [.dismissNotice(id: "n2")])
    #expect(state.server.notice?.text == "Older", "the next notice shows at once")
    // The dismissal is kept; the next pull sends both again, and the older one still shows.
    try home.store.dismiss(id: "n2")
    try server.store.notify(id: "n3", text: "Newest", at: 50)
    _ = try await pull(server, home, feed: .hot)
    _ = state.reduce(.serverChanged(try line()))
    #expect(state.server.notices.map(\.id) == ["n1", "n3"])
    #expect(state.reduce(.key(.character("c"))) == [.dismissNotice(id: "n1")])
    #expect(state.server.notice?.id == "n3")
    #expect(state.reduce(.key(.character("c"))) == [.dismissNotice(id: "n3")])
    #expect(state.reduce(.key(.character("c"))) == [], "nothing left to dismiss")
  }

  @Test func aLongCardPulledOnlineIsReadOffline() async throws {
    var settings = ServerSettings()
    settings.pullBodyLimit = 20
    let long = { (i: Int) in "Card \(i) " + String(repeating: "long ", count: 40) }
    let server = try await LiveServer(cards: LiveServer.cards(4, body: long), settings: settings)
    let home = try ClientHome(server: server)
    var configuration = Configuration()
    configuration.server = server.endpoint
    let pull = try #require(ServerPull(configuration: configuration, database: home.database))
    _ = try await self.pull(server, home, feed: .hot)
    #expect(try home.index.card(id: "c1")?.body == "", "the pull left the bodies out")
    // A budget with room for the cards' text but one body: one fetched, then no more.
    let budget = long(1).utf8.count + 10
    let first = try await onThread {
      pull.precacheOne(budget: budget, skipping: [], deadline: .now + .request)
    }
    guard case .stored(let id) = first else {
      Issue.record("nothing precached: \(first)")
      return
    }
    let second = try await onThread {
      pull.precacheOne(budget: budget, skipping: [], deadline: .now + .request)
    }
    #expect(second == .done)
    let fetched = server.requests.filter { $0.hasPrefix("/v1/cards/") }.count
    #expect(fetched == 2, "the second body came and did not fit: \(server.requests)")
    // Offline: the precached card is read from the index and by its body fetch; another is not.
    await server.stop()
    let card = try #require(try home.index.card(id: id))
    #expect(card.body.hasPrefix("Card ") && card.body.utf8.count == long(1).utf8.count)
    #expect(try await onThread { try pull.body(of: id, deadline: .now + .request) } == card.body)
    let other = id == "c1" ? "c2" : "c1"
    await #expect(throws: (any Error).self) {
      try await onThread { try pull.body(of: other, deadline: .now + .request) }
    }
  }
}
