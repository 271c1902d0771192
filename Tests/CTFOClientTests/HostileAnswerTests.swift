import CTFOClient
import CTFOProgram
import CTFOWire
import Foundation
import HTTP
import Store
import TestFixtures
import Testing

/// The client against answers a broken or hostile server gives: numbers at the edges
/// of their types, values that cannot go into a header. Nothing traps, and nothing stored
/// stops the requests that follow.
@Suite(.timeLimit(.minutes(1)))
struct HostileAnswerTests {
  private static let now: Int64 = 1_800_000_000_000

  private func client(_ peer: ScriptedPeer) throws -> APIClient {
    APIClient(
      transport: HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(peer.port)")),
      device: .init(platform: "linux", app: "t", locale: "C"), now: { Self.now })
  }

  /// `text` as a JSON string.
  private static func quoted(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
  }

  private static func auth(
    token: String = "t1", serverTime: Int64 = now, expiresAt: Int64 = now + 3_600_000
  ) -> String {
    ScriptedPeer.json(
      #"{"token":\#(quoted(token)),"tokenExpiresAt":\#(expiresAt),"cacheKey":"k","#
        + #""distinctId":"d1","serverTime":\#(serverTime)}"#)
  }

  private static func pull(cacheKey: String) -> String {
    ScriptedPeer.json(#"{"cacheKey":\#(quoted(cacheKey)),"full":true,"cards":[]}"#)
  }

  /// A peer that answers auth with `auth` and a pull with `pull`.
  private func peer(auth: String = Self.auth(), pull: @escaping @Sendable (String) -> String)
    throws -> ScriptedPeer
  {
    try ScriptedPeer { request in
      request.hasPrefix("POST /v1/auth") ? auth : pull(request)
    }
  }

  @Test(arguments: [Int64.max, .min, now + 366 * 86_400_000, now - 366 * 86_400_000])
  func aServerClockOverAYearOffIsRefusedAndNothingStored(serverTime: Int64) throws {
    let peer = try peer(auth: Self.auth(serverTime: serverTime)) { _ in Self.pull(cacheKey: "k") }
    defer { peer.stop() }
    var session = ServerSession(server: "s", installId: "i")
    #expect {
      try client(peer).authenticate(session: &session, deadline: .now + .request)
    } throws: { error in
      "\(error)".contains("more than a year from this machine's")
    }
    #expect(session == ServerSession(server: "s", installId: "i"))
  }

  @Test func aServerClockWithinAYearIsTaken() throws {
    let peer = try peer(auth: Self.auth(serverTime: Self.now - 86_400_000)) { _ in
      Self.pull(cacheKey: "k")
    }
    defer { peer.stop() }
    var session = ServerSession(server: "s", installId: "i")
    try client(peer).authenticate(session: &session, deadline: .now + .request)
    #expect(session.clockOffset == -86_400_000 && session.token == "t1")
  }

  @Test func aServerTimeIsReadWithAnyOffsetAndAnyClockWithoutOverflow() {
    #expect(ServerSession.serverTime(at: .max, offset: 5) == .max)
    #expect(ServerSession.serverTime(at: .min, offset: -5) == .min)
    #expect(ServerSession.serverTime(at: 10, offset: .max) == 10, "an offset past the limit")
    #expect(ServerSession.serverTime(at: 10, offset: .min) == 10)
    #expect(ServerSession.serverTime(at: 10, offset: -3) == 7)
  }

  @Test(arguments: ["a\r\nb", String(repeating: "k", count: 2_000_000), "", "a b", "q\"q", "é"])
  func aCacheKeyThatCannotBeSentIsNotKeptAndTheNextPullReachesTheServer(key: String) throws {
    let peer = try peer { _ in Self.pull(cacheKey: key) }
    defer { peer.stop() }
    let client = try client(peer)
    var session = ServerSession(server: "s", installId: "i")
    _ = try client.pull(.hot, session: &session, deadline: .now + .request)
    #expect(session.cacheKeys["hot"] == nil)
    _ = try client.pull(.hot, session: &session, deadline: .now + .request)
    #expect(peer.requests.filter { $0.hasPrefix("GET /v1/pull") }.count == 2)
  }

  @Test func aStoredKeyThatCannotBeSentIsDroppedAndThePullGoesOutFull() throws {
    let peer = try peer { _ in Self.pull(cacheKey: "good") }
    defer { peer.stop() }
    var session = ServerSession(
      server: "s", installId: "i", cacheKeys: ["hot": "bad\r\nX-Injected: 1"])
    _ = try client(peer).pull(.hot, session: &session, deadline: .now + .request)
    let sent = peer.requests.last { $0.hasPrefix("GET /v1/pull") }
    #expect(sent?.contains("If-None-Match") == false, "\(sent ?? "no pull")")
    #expect(session.cacheKeys["hot"] == "good")
  }

  @Test func aKeyTheServerRefusesIsDroppedSoTheNextPullIsFull() throws {
    let peer = try peer { request in
      request.contains("If-None-Match")
        ? ScriptedPeer.json(
          #"{"error":{"code":"bad_request","message":"bad key"}}"#, status: "400 Bad Request")
        : Self.pull(cacheKey: "fresh")
    }
    defer { peer.stop() }
    let client = try client(peer)
    var session = ServerSession(server: "s", installId: "i", cacheKeys: ["hot": "stale"])
    #expect(throws: APIError.self) {
      try client.pull(.hot, session: &session, deadline: .now + .request)
    }
    #expect(session.cacheKeys["hot"] == nil)
    _ = try client.pull(.hot, session: &session, deadline: .now + .request)
    #expect(session.cacheKeys["hot"] == "fresh")
  }

  @Test(arguments: ["t\r\nX: 1", String(repeating: "t", count: 600), "t t"])
  func aTokenThatCannotBeSentIsRefusedNotStored(token: String) throws {
    let peer = try peer(auth: Self.auth(token: token)) { _ in Self.pull(cacheKey: "k") }
    defer { peer.stop() }
    var session = ServerSession(server: "s", installId: "i")
    #expect(throws: APIError.self) {
      try client(peer).authenticate(session: &session, deadline: .now + .request)
    }
    #expect(session.token == nil)
  }

  /// Each element of `cards` that is no card is left out and named, the rest
  /// of the pull kept, whether the answer is decoded whole or in pieces.
  @Test(arguments: [0, APIClient.piecewiseSize])
  func aBadCardCostsOnlyItself(piecewise: Int) throws {
    let cards = [
      #"{"id":"a","type":"news","body":"A."}"#, #"{"type":"news","body":"x"}"#,
      #"{"id":"b","body":"x"}"#, #"{"id":5,"type":"news","body":"x"}"#,
      #"{"id":"c","type":"news","body":7}"#, "7", #"{"id":"d","type":"news","body":"D."}"#,
    ]
    let body = #"{"cacheKey":"k","full":true,"cards":["# + cards.joined(separator: ",") + "]}"
    let pull = try APIClient.decodePull(
      HTTPResponse(status: 200, body: Array(body.utf8)), piecewise: piecewise)
    #expect(pull.cards.map(\.id) == ["a", "d"])
    #expect(
      pull.refused == [
        #"card 2 of the pull: no "id""#, #"b: no "type""#, #"card 4 of the pull: a bad "id""#,
        #"c: a bad "body""#, "card 6 of the pull: not a card object",
      ])
  }

  /// A body fetched for a card the pull sent without it is held to a deck
  /// card's size too; a longer one skips the card and is not stored.
  @Test func aFetchedBodyOverAMebibyteIsRefused() throws {
    let long = String(repeating: "b", count: ServerStore.cardLimit + 1)
    let peer = try peer { request in
      request.hasPrefix("GET /v1/cards/")
        ? ScriptedPeer.json(#"{"id":"long","type":"news","body":"\#(long)"}"#)
        : ScriptedPeer.json(
          #"{"cacheKey":"k","full":true,"cards":[{"id":"long","type":"news","bodyOmitted":true}]}"#
        )
    }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-client")
    let database = try StateDatabase(path: folder.path("state.sqlite"))
    var configuration = Configuration()
    configuration.server = try Endpoint(parsing: "http://127.0.0.1:\(peer.port)")
    let pull = try #require(ServerPull(configuration: configuration, database: database))
    guard case .applied = pull.run(deadline: .now + .request) else {
      Issue.record("the pull was not applied")
      return
    }
    #expect {
      try pull.body(of: "long", deadline: .now + .request)
    } throws: { error in
      "\(error)".contains(ServerStore.cardTooLong)
    }
    #expect(try DeckIndex(database: database).reader().card(type: "news", ordinal: 0)?.body == "")
  }

  @Test func aStoredTokenThatCannotBeSentIsReplacedByANewAuth() throws {
    let peer = try peer { _ in Self.pull(cacheKey: "k") }
    defer { peer.stop() }
    var session = ServerSession(
      server: "s", installId: "i", token: "t\r\n", tokenExpiresAt: .max)
    _ = try client(peer).pull(.hot, session: &session, deadline: .now + .request)
    #expect(session.token == "t1")
    #expect(peer.requests.first?.hasPrefix("POST /v1/auth") == true)
  }
}
