import CTFOClient
import CTFOWire
import Foundation
import HTTP
import TestFixtures
import Testing

/// `/v1/cards/ID` answers are read only up to what a card may hold, not up to the pull's limit.
@Suite(.timeLimit(.minutes(1)))
struct CardAnswerLimitTests {
  private static let now: Int64 = 1_800_000_000_000

  private static let auth = ScriptedPeer.json(
    #"{"token":"t1","tokenExpiresAt":\#(now + 3_600_000),"cacheKey":"k","#
      + #""distinctId":"d1","serverTime":\#(now)}"#)

  private func card(bodyBytes: Int) throws -> Result<String, APIError> {
    let body = String(repeating: "x", count: bodyBytes)
    let peer = try ScriptedPeer { request in
      request.hasPrefix("POST /v1/auth")
        ? Self.auth
        : ScriptedPeer.json(#"{"id":"c1","type":"fact","body":"\#(body)"}"#)
    }
    defer { peer.stop() }
    let client = APIClient(
      transport: HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(peer.port)")),
      device: .init(platform: "linux", app: "t", locale: "C"), now: { Self.now })
    var session = ServerSession(server: "s", installId: "i")
    do throws(APIError) {
      return .success(
        try client.card(id: "c1", session: &session, deadline: .now + .seconds(10)).body ?? "")
    } catch {
      return .failure(error)
    }
  }

  @Test func aCardOfTheLimitIsRead() throws {
    #expect(try card(bodyBytes: 1 << 20).get().utf8.count == 1 << 20)
  }

  @Test func anAnswerPastTheCardLimitIsRefusedThere() throws {
    #expect(APIClient.cardAnswerLimit < 64 << 20)
    #expect(throws: APIError.transport(.tooLarge(limit: APIClient.cardAnswerLimit))) {
      try card(bodyBytes: APIClient.cardAnswerLimit + 1).get()
    }
  }
}
