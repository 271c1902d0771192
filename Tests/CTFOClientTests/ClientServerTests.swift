import CTFOClient
import CTFOServer
import CardText
import CTFOWire
import FeedCore
import FeedPipeline
import HTTP
import Store
import TestFixtures
import Testing

/// ctfo's client against the real server on loopback: auth, pulls by
/// cache key, changes, personalised order, errors.
@Suite(.timeLimit(.minutes(1)))
struct ClientServerTests {
  /// A client's state database and session.
  final class ClientHome: @unchecked Sendable {
    let folder: TemporaryFolder
    let database: StateDatabase
    let store: ServerStore
    var session: ServerSession

    init(server: LiveServer) throws {
      folder = try TemporaryFolder("ctfo-client")
      database = try StateDatabase(path: folder.path("state.sqlite"))
      store = ServerStore(database: database)
      session = try store.session(for: server.endpoint.description)
    }

    /// One pull, applied as the app applies it.
    @discardableResult
    func pull(_ server: LiveServer, feed: PullFeed = .hot) async throws -> APIClient.PullOutcome {
      try await onThread { [self] in
        let outcome = try server.client().pull(feed, session: &session, deadline: .now + .request)
        if case .changed(let pull) = outcome { try store.apply(pull, session: session, at: 0) }
        return outcome
      }
    }

    var index: DeckIndex { DeckIndex(database: database) }

    /// The ids the feed deals first, `n` of them, from the stored scores (a seed for the rest).
    func dealt(_ n: Int, types: Set<String>) throws -> [String] {
      let catalog = try index.catalog()
      let reader = index.reader()
      return try SerialDeal.cards(
        n, catalog: catalog, enabled: types, lookahead: 1, seed: 1,
        area: TextArea(width: 60, height: 10), scores: try store.scores(of: types),
        fetch: { try reader.card(type: $0, ordinal: $1)! }
      ).map(\.card.id)
    }
  }

  @Test func authPullAndASecondPullIsNotModified() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    guard case .changed(let pull) = try await home.pull(server) else {
      Issue.record("the first pull changed nothing")
      return
    }
    #expect(pull.full && pull.cards.count == 12)
    #expect(home.session.token != nil && home.session.distinctId != nil)
    #expect(try home.index.catalog().map(\.cards).reduce(0, +) == 12)
    #expect(try await home.pull(server) == .unchanged)
    #expect(server.requests == ["/v1/auth", "/v1/pull", "/v1/pull"])
  }

  @Test func cardsAddedAndRemovedOnTheServerArriveWithTheNextPull() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    try await home.pull(server)
    var cards = LiveServer.cards(12).filter { $0.id != "c3" }
    cards.append(Wire.Card(id: "c99", type: "news", title: "New", body: "Fresh."))
    #expect(try server.store.load(cards: cards, types: LiveServer.types).removed == 1)
    guard case .changed(let pull) = try await home.pull(server) else {
      Issue.record("the change did not arrive")
      return
    }
    #expect(!pull.full && pull.cards.map(\.id) == ["c99"] && pull.removed == ["c3"])
    #expect(try home.index.card(id: "c3") == nil)
    #expect(try home.index.card(id: "c99")?.body == "Fresh.")
  }

  @Test func newScoresReorderTheNextCardsOfTheirType() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    try await home.pull(server)
    // Cards with no score draw one below 1 (ScoredPool), so these two come first.
    #expect(try server.store.score(cardId: "c9", score: 1.9, at: 100))
    #expect(try server.store.score(cardId: "c5", score: 1.5, at: 100))
    try await home.pull(server)
    let first = try home.dealt(2, types: ["news"])
    let scores = try home.store.scores(of: ["news"])
    #expect(first == ["c9", "c5"], "\(scores)")
    // A newer score turns the order; an older one for c5 changes nothing.
    #expect(try server.store.score(cardId: "c5", score: 1.95, at: 200))
    try await home.pull(server)
    let second = try home.dealt(2, types: ["news"])
    #expect(second == ["c5", "c9"])
  }

  @Test func aScoreForACardAlreadySeenChangesNothing() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    try await home.pull(server)
    let seen = try #require(try home.index.card(id: "c7"))
    _ = try StateStore(database: home.database).appendShown([seen], time: 0)
    #expect(try server.store.score(cardId: "c7", score: 1, at: 100))
    try await home.pull(server)
    #expect(try home.store.scores(of: ["news"]).isEmpty)
  }

  @Test func aRecentFeedDealsTheNewestFirst() async throws {
    let server = try await LiveServer(cards: LiveServer.cards(4))
    defer { Task { await server.stop() } }
    let home = try ClientHome(server: server)
    try await home.pull(server, feed: .recent)
    #expect(
      try server.store.load(
        cards: LiveServer.cards(4) + [Wire.Card(id: "late", type: "news", body: "Late.")],
        types: LiveServer.types) == LoadReport(added: 1))
    try await home.pull(server, feed: .recent)
    #expect(try home.dealt(1, types: ["news"]) == ["late"])
  }

  @Test func aLongCardComesWithoutItsBodyWhichTheCardRouteGives() async throws {
    var settings = ServerSettings()
    settings.pullBodyLimit = 20
    let long = String(repeating: "long ", count: 40)
    let server = try await LiveServer(
      cards: LiveServer.cards(2) { $0 == 2 ? long : "Short." }, settings: settings)
    defer { Task { await server.stop() } }
    let session = Box(ServerSession(server: "s", installId: "i"))
    guard
      case .changed(let pull) = try await onThread({
        try server.client().pull(.hot, session: &session.value, deadline: .now + .request)
      })
    else {
      Issue.record("no pull")
      return
    }
    let omitted = try #require(pull.cards.first { $0.id == "c2" })
    #expect(omitted.needsBody && omitted.body == nil)
    let whole = try await onThread {
      try server.client().card(id: "c2", session: &session.value, deadline: .now + .request)
    }
    #expect(whole.body == long)
    await #expect(throws: APIError.refused(status: 404, code: "not_found", message: "no card nope"))
    {
      try await onThread {
        try server.client().card(id: "nope", session: &session.value, deadline: .now + .request)
      }
    }
  }

  @Test func aRefusedTokenGetsOneNewAuthAndTheRequestIsSentAgain() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let session = Box(
      ServerSession(server: "s", installId: "i", token: "forged", tokenExpiresAt: .max))
    let outcome = try await onThread {
      try server.client().pull(.hot, session: &session.value, deadline: .now + .request)
    }
    #expect(outcome != .unchanged)
    #expect(session.value.token != "forged")
    #expect(server.requests == ["/v1/pull", "/v1/auth", "/v1/pull"])
  }

  @Test func pastTheRateLimitTheServerSaysWhenToComeBack() async throws {
    var settings = ServerSettings()
    settings.requestsPerMinute = 2
    let server = try await LiveServer(settings: settings)
    defer { Task { await server.stop() } }
    var session = ServerSession(server: "s", installId: "i")
    for _ in 0..<2 {
      _ = try server.client().pull(.hot, session: &session, deadline: .now + .request)
    }
    #expect {
      try server.client().pull(.hot, session: &session, deadline: .now + .request)
    } throws: { error in
      guard case .unavailable(429, let after?) = error as? APIError else { return false }
      return (1...60).contains(after)
    }
  }

  @Test func badRequestsGetTheJSONErrorShape() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let transport = HTTPTransport(endpoint: server.endpoint)
    let big = HTTPRequest(
      method: "POST", path: "/v1/auth", headers: [("Content-Type", "application/json")],
      body: Array(repeating: UInt8(ascii: " "), count: 100_000))
    let tooLarge = try await onThread { try transport.send(big, deadline: .now + .request) }
    #expect(tooLarge.status == 413)
    #expect(String(decoding: tooLarge.body, as: UTF8.self).contains(#""code":"too_large""#))
    let nested = HTTPRequest(
      method: "POST", path: "/v1/auth", body: Array(String(repeating: "[", count: 513).utf8))
    #expect(
      try await onThread { try transport.send(nested, deadline: .now + .request) }.status == 400)
    let noToken = try await onThread {
      try transport.send(HTTPRequest(path: "/v1/pull"), deadline: .now + .request)
    }
    #expect(noToken.status == 401)
    #expect(String(decoding: noToken.body, as: UTF8.self).contains(#""code":"unauthorized""#))
  }

  @Test func aRedirectIsNeverFollowedSoTheTokenStaysHome() async throws {
    let elsewhere = try LoopbackPeer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    defer { elsewhere.stop() }
    let redirecting = try LoopbackPeer(
      answer: "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(elsewhere.port)/v1/pull\r\n"
        + "Content-Length: 0\r\n\r\n")
    let client = APIClient(
      transport: HTTPTransport(
        endpoint: try Endpoint(parsing: "http://127.0.0.1:\(redirecting.port)")),
      device: .init(platform: "linux", app: "t", locale: "C"))
    var session = ServerSession(server: "s", installId: "i", token: "secret", tokenExpiresAt: .max)
    #expect {
      try client.pull(.hot, session: &session, deadline: .now + .request)
    } throws: { error in
      if case .redirected(302, _) = error as? APIError { return true }
      return false
    }
    #expect(redirecting.request()?.contains("Authorization: Bearer secret") == true)
    #expect(elsewhere.connections == 0)
  }

  @Test func aServerThatIsDownIsAProblemNotedForStatus() async throws {
    let server = try await LiveServer()
    let home = try ClientHome(server: server)
    try await home.pull(server)
    await server.stop()
    await #expect(throws: APIError.self) { try await home.pull(server) }
    #expect(try home.index.catalog().map(\.cards).reduce(0, +) == 12, "the cache stays")
  }
}

/// A value a test's blocking closures change in place.
final class Box<Value: Sendable>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
