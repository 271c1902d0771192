import CTFOClient
import CTFOServer
import CTFOWire
import Foundation
import HTTP
import TestFixtures
import Testing

/// Pulls in gzip between the real client and server: the same JSON either way, a strong ETag of
/// its own, full pulls from memory, and the client's body limit on what a pull inflates to.
@Suite(.timeLimit(.minutes(1)))
struct GzipPullTests {
  /// A server whose clock stands still, so that two pulls of the same revision are the same
  /// bytes.
  private static func server(cards: [Wire.Card] = LiveServer.cards(30)) async throws -> LiveServer {
    var settings = LiveServer.settings
    let now = APIClient.systemMilliseconds()
    settings.clock = { now }
    return try await LiveServer(cards: cards, settings: settings)
  }

  private func pull(_ install: RawInstall, gzip: Bool, holding etag: String? = nil) async throws
    -> HTTPResponse
  {
    var headers = [("Authorization", "Bearer \(install.token)")]
    if gzip { headers.append(("Accept-Encoding", "gzip")) }
    if let etag { headers.append(("If-None-Match", etag)) }
    return try await RawInstall.send(
      HTTPRequest(path: "/v1/pull?feed=hot", headers: headers), to: install.server)
  }

  @Test func aGzipPullIsTheSamePullWithAnETagOfItsOwn() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let install = try await RawInstall("gzip-install", on: server)
    let plain = try await pull(install, gzip: false)
    let packed = try await pull(install, gzip: true)
    #expect(plain.status == 200 && packed.status == 200)
    #expect(packed.body == plain.body, "inflated by the client: the same bytes")
    #expect(server.pulls.hitCount == 1, "the second full pull came from memory")
    let etag = try #require(plain.header("ETag"))
    #expect(packed.header("ETag") == String(etag.dropLast()) + "-gzip\"")
    #expect(plain.header("Vary") == "Accept-Encoding")
    #expect(packed.header("Vary") == "Accept-Encoding")
    // The transport drops the coding and its length once it has inflated the body.
    #expect(plain.header("Content-Length") != nil)
    #expect(packed.header("Content-Length") == nil)
    let decoded = try JSONDecoder().decode(Wire.Pull.self, from: Data(packed.body))
    #expect(decoded.full && decoded.cards.count == 30)

    let held = try await pull(install, gzip: true, holding: packed.header("ETag"))
    #expect(held.status == 304, "the gzip ETag names the same key")
    #expect(held.header("ETag") == packed.header("ETag"))
    #expect(try await pull(install, gzip: false, holding: packed.header("ETag")).status == 304)

    _ = try server.store.score(cardId: "c3", score: 0.5, at: 1_000)
    let delta = try await pull(install, gzip: true, holding: packed.header("ETag"))
    #expect(delta.status == 200)
    let change = try JSONDecoder().decode(Wire.Pull.self, from: Data(delta.body))
    #expect(!change.full && change.cards.isEmpty)
    #expect(change.scores.map(\.cardId) == ["c3"])
  }

  /// Bodies that shrink well: the gzip is far under the client's limit, the JSON past it.
  @Test func aPullThatInflatesPastTheClientsLimitIsRefused() async throws {
    let server = try await Self.server(
      cards: LiveServer.cards(40) { _ in String(repeating: "all the same ", count: 300) })
    defer { Task { await server.stop() } }
    let client = APIClient(
      transport: HTTPTransport(endpoint: server.endpoint, bodyLimit: 40_000),
      device: .init(platform: "linux", app: "ctfo-test", locale: "C"))
    let name = server.endpoint.description
    let outcome = try await onThread { () -> APIError? in
      var session = ServerSession(server: name, installId: "small-limit")
      do throws(APIError) {
        _ = try client.pull(.hot, session: &session, deadline: .now + .request)
        return nil
      } catch { return error }
    }
    #expect(outcome == .transport(.tooLarge(limit: 40_000)), "\(String(describing: outcome))")

    let roomy = server.client()
    let pulled = try await onThread { () -> APIClient.PullOutcome in
      var session = ServerSession(server: name, installId: "roomy")
      return try roomy.pull(.hot, session: &session, deadline: .now + .request)
    }
    guard case .changed(let pull) = pulled else {
      Issue.record("no pull: \(pulled)")
      return
    }
    #expect(pull.cards.count == 40)
  }
}
