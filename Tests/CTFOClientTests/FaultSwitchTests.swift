import CTFOClient
import CTFOServer
import CTFOWire
import HTTP
import TestFixtures
import Testing

/// The server's test fault switch (`Faults`): scripted answers, delays, resets and closes
/// after a commit, and a log of every request, so that the client's tests meet each failure
/// from the real server. Off (the default of `ctfo-server`), its routes do not exist.
@Suite(.timeLimit(.minutes(1)))
struct FaultSwitchTests {
  private func send(
    _ server: LiveServer, _ method: String, _ path: String, body: String = "",
    deadline: Duration = .request
  ) async throws -> HTTP.HTTPResponse {
    try await onThread {
      try HTTPTransport(endpoint: server.endpoint).send(
        HTTPRequest(
          method: method, path: path, headers: [("Content-Type", "application/json")],
          body: Array(body.utf8)), deadline: .now + deadline)
    }
  }

  /// Pulls with a new session (auth first); the error, if any.
  private func pull(_ server: LiveServer) async -> APIError? {
    let client = server.client()
    let endpoint = server.endpoint.description
    do {
      return try await onThread { () -> APIError? in
        var session = ServerSession(server: endpoint, installId: "i1")
        do {
          _ = try client.pull(.hot, session: &session, deadline: .now + .request)
          return nil
        } catch let error as APIError { return error }
      }
    } catch {
      return .invalid("the test's thread failed: \(error)")
    }
  }

  @Test func withoutTheSwitchItsRoutesDoNotExist() async throws {
    let server = try await LiveServer(faultSwitch: false)
    defer { Task { await server.stop() } }
    #expect(try await send(server, "GET", "/_test/requests").status == 404)
    #expect(try await send(server, "PUT", "/_test/faults", body: #"{"rules":[]}"#).status == 404)
  }

  @Test func anAnswerRuleIsUsedItsTimesThenTheRealRouteAnswers() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let put = try await send(
      server, "PUT", "/_test/faults",
      body: #"{"rules":[{"path":"/v1/pull","status":503,"retryAfter":7,"times":1}]}"#)
    #expect(put.status == 204)
    #expect(await pull(server) == .unavailable(status: 503, retryAfter: 7))
    #expect(await pull(server) == nil)
    let log = server.faults.log
    #expect(log.byPath == ["/v1/auth": 2, "/v1/pull": 2], "the fault routes are not counted")
    let pulls = log.requests.filter { $0.path == "/v1/pull" }
    #expect(pulls.count == 2 && pulls.allSatisfy { $0.authorization })
    #expect(!log.requests.contains { $0.path == "/v1/auth" && $0.authorization })
  }

  @Test func aResetAndACloseAfterTheCommitGiveNoAnswer() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    server.faults.set([Faults.Rule(path: "/v1/auth", action: .reset, times: 1)])
    guard case .transport = await pull(server) else {
      Issue.record("a reset is a transport error")
      return
    }
    server.faults.set([Faults.Rule(path: "/v1/pull", action: .closeAfterCommit, times: 1)])
    guard case .transport = await pull(server) else {
      Issue.record("a close after the commit is a transport error")
      return
    }
    #expect(await pull(server) == nil)
    #expect(server.faults.log.byPath["/v1/pull"] == 2)
  }

  @Test func aDelayHoldsTheRealRouteAndTheLogCountsRequestsInFlight() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    server.faults.set([Faults.Rule(path: "/v1/auth", delayMs: 400)])
    let late = try? await send(server, "POST", "/v1/auth", body: "{}", deadline: .milliseconds(100))
    #expect(late == nil, "the answer comes after the client's deadline")
    async let one = send(server, "POST", "/v1/auth", body: "{}")
    async let two = send(server, "POST", "/v1/auth", body: "{}")
    let statuses = try await [one.status, two.status]
    #expect(statuses == [400, 400], "the real route answers, late")
    #expect(server.faults.log.maxInFlight >= 2)
    _ = try await send(server, "DELETE", "/_test/requests")
    #expect(server.faults.log.total == 0)
  }
}

extension FaultSwitchTests {
  /// A card's body asked for once is asked for once, whatever goes wrong: the client never
  /// sends a request again by itself (feed-logic.md, "Handling Errors").
  @Test(arguments: [
    Faults.Rule(path: "/v1/cards/", status: 500), Faults.Rule(path: "/v1/cards/", action: .reset),
    Faults.Rule(path: "/v1/cards/", action: .closeAfterCommit),
  ])
  func oneCardRequestIsSentOnce(rule: Faults.Rule) async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    server.faults.set([rule])
    let client = server.client()
    let endpoint = server.endpoint.description
    let failed = try await onThread { () -> Bool in
      var session = ServerSession(server: endpoint, installId: "i1")
      do {
        _ = try client.card(id: "c1", session: &session, deadline: .now + .request)
        return false
      } catch { return true }
    }
    #expect(failed)
    #expect(server.faults.log.byPath["/v1/cards/c1"] == 1)
  }
}
