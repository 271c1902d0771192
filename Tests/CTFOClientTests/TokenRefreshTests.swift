import CTFOClient
import CTFOWire
import HTTP
import TestFixtures
import Testing

/// A token past its expiry by the server's clock (this machine's clock plus the offset measured
/// at auth) is renewed before any request is sent: the server's `401` and a second auth would
/// rescue the request, at the cost of a request that carries the old token. The clock is
/// injected and a loopback peer answers, so each request is seen as sent.
@Suite(.timeLimit(.minutes(1)))
struct TokenRefreshTests {
  /// This machine's time, and the server's lead over it.
  static let now: Int64 = 1_800_000_000_000
  static let offset: Int64 = 90_000

  private static func ok(_ json: String) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)"
      + "\r\n\r\n\(json)"
  }

  private static let auth = ok(
    #"{"token":"new","tokenExpiresAt":\#(now + offset + 3_600_000),"cacheKey":"k","#
      + #""distinctId":"d","serverTime":\#(now + offset)}"#)
  private static let card = ok(#"{"id":"c1","type":"news","title":"T","body":"B"}"#)

  /// Asks `peer` for card c1 with a session whose token "old" expires `expiresIn` ms from the
  /// server's now; returns the session after, and the first line and token of each request.
  private func fetch(answers: [String], expiresIn: Int64) throws -> (
    session: ServerSession, requests: [(line: String, token: String?)]
  ) {
    let peer = try LoopbackPeer(answers: answers)
    let client = APIClient(
      transport: HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(peer.port)")),
      device: .init(platform: "linux", app: "ctfo-test", locale: "C"), now: { Self.now })
    var session = ServerSession(
      server: "s", installId: "i", token: "old", tokenExpiresAt: Self.now + Self.offset + expiresIn,
      clockOffset: Self.offset)
    // The requests are checked whatever the answer: a peer answering out of turn fails the call.
    let card = Result {
      try client.card(id: "c1", session: &session, deadline: .now + .seconds(10))
    }
    #expect((try? card.get())?.id == "c1", "\(card)")
    let requests = peer.requests.map { request in
      let lines = request.split(separator: "\r\n")
      let token = lines.first { $0.hasPrefix("Authorization: Bearer ") }
        .map { String($0.dropFirst("Authorization: Bearer ".count)) }
      return (line: String(lines.first ?? ""), token: token)
    }
    return (session, requests)
  }

  @Test(arguments: [-60_000, -1, 0] as [Int64])
  func anExpiredTokenIsRenewedFirstAndNeverSent(expiresIn: Int64) throws {
    let (session, requests) = try fetch(answers: [Self.auth, Self.card], expiresIn: expiresIn)
    #expect(requests.map(\.line) == ["POST /v1/auth HTTP/1.1", "GET /v1/cards/c1 HTTP/1.1"])
    #expect(requests.map(\.token) == [nil, "new"], "no request carries the old token")
    #expect(session.token == "new")
  }

  @Test func aTokenValidOneMillisecondMoreIsSentAsItIs() throws {
    let (session, requests) = try fetch(answers: [Self.card], expiresIn: 1)
    #expect(requests.map(\.line) == ["GET /v1/cards/c1 HTTP/1.1"])
    #expect(requests.map(\.token) == ["old"])
    #expect(session.token == "old")
  }
}
