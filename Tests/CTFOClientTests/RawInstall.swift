import CTFOClient
import CTFOWire
import FeedCore
import Foundation
import HTTP
import TestFixtures

/// One install talking to the server request by request, as a hostile or plain client would:
/// its own auth, events and pulls, each answer given back whole.
struct RawInstall: Sendable {
  let server: LiveServer
  let installId: String
  let token: String
  let distinctId: String

  /// Authenticates `installId` on `server`.
  init(_ installId: String, on server: LiveServer) async throws {
    self.server = server
    self.installId = installId
    let answer = try await RawInstall.send(Self.authRequest(installId), to: server)
    let auth = try JSONDecoder().decode(Wire.AuthResponse.self, from: Data(answer.body))
    token = auth.token
    distinctId = auth.distinctId
  }

  static func authRequest(_ installId: String) -> HTTPRequest {
    HTTPRequest(
      method: "POST", path: "/v1/auth", headers: [("Content-Type", "application/json")],
      body: Array(
        #"{"installId":"\#(installId)","device":{"platform":"linux","app":"t","locale":"C"},"user":{},"clientTime":0}"#
          .utf8))
  }

  /// Sends `request` on a thread of its own (the server's handlers need the cooperative pool).
  static func send(_ request: HTTPRequest, to server: LiveServer) async throws -> HTTPResponse {
    let transport = HTTPTransport(endpoint: server.endpoint)
    return try await onThread { try transport.send(request, deadline: .now + .request) }
  }

  /// Posts `events` (each `(name, insertId, cardId)`, card ids of `LiveServer.cards`) to
  /// `/v1/events`, each saying `distinct_id` is `claimed`.
  func post(
    _ events: [(name: String, insertId: String, cardId: String)], claiming claimed: String = "x"
  ) async throws -> HTTPResponse {
    let body = events.map { event in
      let type = (Int(event.cardId.dropFirst()) ?? 1) % 2 == 1 ? "news" : "tips"
      return #"{"event":"\#(event.name)","properties":{"time":1763900000123,"#
        + #""distinct_id":"\#(claimed)","$insert_id":"\#(event.insertId)","#
        + #""card_id":"\#(event.cardId)","card_type":"\#(type)"}}"#
    }
    return try await post(body: "[" + body.joined(separator: ",") + "]")
  }

  func post(body: String) async throws -> HTTPResponse {
    try await RawInstall.send(
      HTTPRequest(
        method: "POST", path: "/v1/events",
        headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
        body: Array(body.utf8)), to: server)
  }

  /// A pull of `feed` holding `etag` (none: a full pull).
  func pull(holding etag: String? = nil, feed: PullFeed = .hot) async throws -> HTTPResponse {
    var headers = [("Authorization", "Bearer \(token)")]
    if let etag { headers.append(("If-None-Match", etag)) }
    return try await RawInstall.send(
      HTTPRequest(path: "/v1/pull?feed=\(feed.rawValue)", headers: headers), to: server)
  }
}
