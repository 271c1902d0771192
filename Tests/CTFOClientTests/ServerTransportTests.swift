import CTFOServer
import CTFOWire
import Foundation
import SQL
import TestFixtures
import Testing

/// The server's side of the connection: what it holds of bodies and for how long,
/// what it refuses before parsing, what it logs, HEAD, and ids as a path carries them. Each
/// test speaks raw HTTP to the real server on loopback.
@Suite(.timeLimit(.minutes(1)))
struct ServerTransportTests {
  private func head(
    _ method: String, _ path: String, length: Int? = nil, headers: [String] = []
  ) -> String {
    RawConnection.head(method, path, length: length, headers: headers)
  }

  /// A token of install `install`, from `POST /v1/auth`.
  private func token(_ server: LiveServer, install: String = "i1") async throws -> String {
    let body =
      #"{"installId":"\#(install)","device":{"platform":"linux","app":"t","locale":"C"},"user":{},"clientTime":0}"#
    let answer = try await onThread { [self] in
      try RawConnection.exchange(
        port: server.port, head("POST", "/v1/auth", length: body.utf8.count) + body)
    }
    let json = try JSONSerialization.jsonObject(with: Data((answer?.body ?? "").utf8))
    return try #require((json as? [String: Any])?["token"] as? String, "\(String(describing: answer))")
  }

  /// The first answer to `request` (sent again, up to 50 times) whose status is not `status`.
  private func firstAnswer(_ server: LiveServer, _ request: String, otherThan status: Int)
    async throws -> RawMessage?
  {
    try await onThread {
      for _ in 0..<50 {
        let answer = try RawConnection.exchange(port: server.port, request)
        if answer?.status != status { return answer }
      }
      return nil
    }
  }

  /// Waits (within ten seconds) until no request is in flight on `server`.
  private func settled(_ server: LiveServer) async throws {
    try await within("the server's requests to end") {
      while server.faults.log.inFlight > 0, !Task.isCancelled { await Task.yield() }
    }
  }

  // MARK: - Bodies held at once

  /// A body whose declared length does not fit in what is left of the shared budget is
  /// refused with `503` before a byte of it is read; once the body holding the budget goes,
  /// the same request gets through to its route (`400` here: the body is blank). The caller
  /// sends the Mixpanel credentials: a caller not known gets a small share only.
  @Test func aBodyPastTheSharedBudgetIsRefusedThenTakenOnceTheBudgetIsFree() async throws {
    var settings = LiveServer.settings
    settings.uploadMemory = 100_000
    let server = try await LiveServer(settings: settings)
    defer { Task { await server.stop() } }
    let credentials = ["Authorization: Basic cHJvamVjdC10b2tlbjo="]
    let holder = try RawConnection(port: server.port)
    holder.send(head("POST", "/import", length: 80_000, headers: credentials) + "[")
    let request =
      head("POST", "/import", length: 80_000, headers: credentials)
      + String(repeating: " ", count: 80_000)
    // The holder's head must be read before the first try, which would otherwise take the
    // budget first: a request answered after it was sent says it has been (mostly); then ask
    // until it has.
    _ = try await onThread { [self] in
      try RawConnection.exchange(port: server.port, head("GET", "/healthz"))
    }
    let refused = try await firstAnswer(server, request, otherThan: 400)
    #expect(refused?.status == 503, "\(String(describing: refused))")
    #expect(refused?.header("Retry-After") != nil)
    #expect(refused?.body.contains("busy") == true)
    holder.finishSending()
    let taken = try await firstAnswer(server, request, otherThan: 503)
    #expect(taken?.status == 400, "\(String(describing: taken))")
  }

  /// A body that has not all arrived by the deadline is answered `408` and its connection
  /// closed: it holds no memory and no connection past it.
  @Test func aBodyStillComingAtTheDeadlineIsAnswered408AndClosed() async throws {
    var settings = ServerSettings()
    settings.bodyDeadline = .milliseconds(300)
    let server = try await LiveServer(settings: settings)
    defer { Task { await server.stop() } }
    let connection = try RawConnection(port: server.port)
    connection.send(
      head("POST", "/import", length: 1000, headers: ["Authorization: Basic dTo="]) + "[{")
    let answer = try await onThread { connection.answer(within: 10) }
    #expect(answer?.status == 408, "\(String(describing: answer))")
    #expect(try await onThread { connection.isClosedByServer(within: 10) })
  }

  // MARK: - Refused before the parse

  /// The events of a batch are counted before it is parsed: a body of more than 2,000
  /// elements is refused for its count even where it is not valid JSON further on.
  @Test func aBatchOfTooManyElementsIsRefusedForItsCountBeforeItIsParsed() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let token = try await token(server)
    let body = "[" + String(repeating: "{},", count: 2001) + "x]"
    let answer = try await onThread { [self] in
      try RawConnection.exchange(
        port: server.port,
        head(
          "POST", "/v1/events", length: body.utf8.count, headers: ["Authorization: Bearer \(token)"])
          + body)
    }
    #expect(answer?.status == 400)
    #expect(answer?.body.contains("2002 events: at most 2000") == true, "\(String(describing: answer))")
  }

  /// A connection that sends nothing, or half a head, is closed after the idle timeout.
  @Test(arguments: ["", "GET /v1/pull HTTP/1.1\r\nHost: 127"])
  func aConnectionSilentPastTheIdleTimeoutIsClosed(sent: String) async throws {
    var settings = ServerSettings()
    settings.idleTimeout = .milliseconds(300)
    let server = try await LiveServer(settings: settings)
    defer { Task { await server.stop() } }
    let connection = try RawConnection(port: server.port)
    connection.send(sent)
    #expect(try await onThread { connection.isClosedByServer(within: 10) })
  }

  // MARK: - A client that leaves mid-body

  /// A client that leaves in the middle of its body is not a failure of the server: it is
  /// not logged as an error and never answered `503`.
  @Test func aClientLeavingMidBodyIsNotAnErrorOfTheServer() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let connection = try RawConnection(port: server.port)
    connection.send(head("POST", "/v1/auth", length: 100) + #"{"installId""#)
    connection.finishSending()
    let answer = try await onThread { connection.answer(within: 10) }
    try await settled(server)
    #expect(answer.map { $0.status == 400 } ?? true, "\(String(describing: answer))")
    let errors = server.logs.all.filter { $0.level >= .error }.map(\.text)
    #expect(errors.isEmpty, "\(errors)")
  }

  /// `/mp/collect`'s `api_secret` (its query) never reaches the log; the path does.
  @Test func theLogNeverHoldsTheQuerysSecret() async throws {
    let server = try await LiveServer(logRequests: true)
    defer { Task { await server.stop() } }
    let body = #"{"client_id":"c1","events":[{"name":"swipe"}]}"#
    let answer = try await onThread { [self] in
      try RawConnection.exchange(
        port: server.port,
        head("POST", "/mp/collect?measurement_id=G-1&api_secret=s3cr3t", length: body.utf8.count)
          + body)
    }
    #expect(answer?.status == 204)
    let lines = server.logs.all.map(\.text)
    #expect(lines.contains { $0.contains("/mp/collect") }, "\(lines)")
    #expect(!lines.contains { $0.contains("s3cr3t") }, "\(lines)")
  }

  /// `HEAD` on a `GET` route answers as `GET` would, headers and all, without the body.
  @Test func headOnAGetRouteAnswersItsHeadersWithoutTheBody() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let token = try await token(server)
    let answers = try await onThread { [self] in
      try ["GET", "HEAD"].map { method in
        let connection = try RawConnection(port: server.port)
        connection.send(head(method, "/v1/cards/c1", headers: ["Authorization: Bearer \(token)"]))
        connection.finishSending()
        return connection.answer(within: 10)
      }
    }
    let (got, headed) = (answers[0], answers[1])
    #expect(got?.status == 200 && headed?.status == 200, "\(String(describing: headed))")
    #expect(headed?.header("Content-Length") == got?.header("Content-Length"))
    #expect(headed?.body == "")
  }

  /// `GET /v1/cards/{id}` decodes the id's percent-encoding: ids with a space, `/`, `%`,
  /// `?`, `#`, `+` or non-ASCII are fetched.
  @Test func aCardsIdIsPercentDecoded() async throws {
    let ids = ["a b", "a/b", "50%", "why?", "#1", "a+b", "café"]
    let cards = ids.map { Wire.Card(id: $0, type: "news", title: "T", body: "Body of \($0).") }
    let server = try await LiveServer(cards: cards)
    defer { Task { await server.stop() } }
    let token = try await token(server)
    for id in ids {
      let path = "/v1/cards/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let answer = try await onThread { [self] in
        try RawConnection.exchange(
          port: server.port, head("GET", path, headers: ["Authorization: Bearer \(token)"]))
      }
      #expect(answer?.status == 200, "\(id): \(String(describing: answer))")
      #expect(answer?.body.contains("Body of ") == true, "\(id)")
    }
  }

  /// A token revoked in the store (here by another connection, as another process would) is
  /// refused once the second it is remembered for is over.
  @Test func aTokenRevokedInTheStoreIsRefusedWithinASecond() throws {
    let folder = try TemporaryFolder("ctfo-server")
    let store = try SQLiteCardStore(path: folder.path("server.sqlite"))
    let hash = [UInt8](repeating: 7, count: 32)
    _ = try store.issueToken(hash: hash, installId: "i1", expiresAt: .max)
    #expect(try store.install(forToken: hash, at: 10_000) == "i1")
    try Connection(path: folder.path("server.sqlite"), role: .reader).run("DELETE FROM tokens")
    #expect(try store.install(forToken: hash, at: 11_000) == nil)
  }
}
