import Foundation
import TestFixtures
import Testing

@testable import HTTP

struct TransportTests {
  private func transport(_ peer: LoopbackPeer) throws -> HTTPTransport {
    HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(peer.port)/base"))
  }

  @Test func sendsOneRequestAndReadsTheAnswer() throws {
    let peer = try LoopbackPeer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    let body = Array(#"{"installId":"i"}"#.utf8)
    let answer = try transport(peer).send(
      HTTPRequest(
        method: "POST", path: "/v1/auth", headers: [("Content-Type", "application/json")],
        body: body),
      deadline: .now + .seconds(10))
    #expect(answer.status == 200)
    #expect(answer.body == Array("{}".utf8))
    #expect(
      peer.request()
        == "POST /base/v1/auth HTTP/1.1\r\nHost: 127.0.0.1:\(peer.port)\r\nConnection: close\r\n"
        + "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n\r\n"
        + #"{"installId":"i"}"#)
  }

  @Test func aRedirectIsReturnedNotFollowed() throws {
    let peer = try LoopbackPeer(
      answer:
        "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/steal\r\nContent-Length: 0\r\n\r\n")
    let answer = try transport(peer).send(
      HTTPRequest(path: "/v1/pull", headers: [("Authorization", "Bearer secret")]),
      deadline: .now + .seconds(10))
    #expect(answer.status == 302)
    #expect(answer.header("location") == "http://127.0.0.1:9/steal")
  }

  @Test func aPeerThatNeverAnswersTimesOutAtTheDeadline() throws {
    let peer = try LoopbackPeer(answer: nil)
    defer { peer.stop() }
    let start = ContinuousClock.now
    #expect(throws: HTTPError.timedOut) {
      try transport(peer).send(HTTPRequest(path: "/v1/pull"), deadline: start + .milliseconds(300))
    }
    #expect(ContinuousClock.now - start >= .milliseconds(300))
  }

  @Test func aClosedPortIsUnreachable() throws {
    let peer = try LoopbackPeer(answer: "")
    let port = peer.port
    _ = try? HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(port)"))
      .send(HTTPRequest(path: "/"), deadline: .now + .seconds(10))
    // The peer has closed its listener after its one connection: nothing listens there now.
    #expect {
      try HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(port)"))
        .send(HTTPRequest(path: "/"), deadline: .now + .seconds(10))
    } throws: { "\($0)".contains("cannot connect to 127.0.0.1 port \(port)") }
  }

  @Test(arguments: [
    HTTPRequest(path: "/", headers: [("X-Evil", "a\r\nHost: other")]),
    HTTPRequest(path: "/", headers: [("Bad Name", "x")]),
    HTTPRequest(path: "/a b"),
    HTTPRequest(path: "no-slash"),
    HTTPRequest(method: "GE T", path: "/"),
  ])
  func requestsThatCannotBeSentAreRefusedBeforeConnecting(request: HTTPRequest) throws {
    let transport = HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:9"))
    #expect {
      try transport.send(request, deadline: .now + .seconds(10))
    } throws: { error in
      if case .badRequest = error as? HTTPError { return true }
      return false
    }
  }
}
