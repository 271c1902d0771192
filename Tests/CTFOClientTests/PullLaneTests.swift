import CTFOServer
import CTFOWire
import Foundation
import HTTP
import TestFixtures
import Testing

/// The pulls answered on the event loop (`PullLane`) answer as the router does: the same
/// headers and bodies, counted in /metrics, in order behind a request the router has, the
/// router's answer for whatever they cannot tell at once.
@Suite struct PullLaneTests {
  struct NoAnswer: Error {}

  /// A pull of `feed` with `headers`, on `connection` or a new one.
  private static func pull(
    _ token: String, port: Int, feed: String = "hot", headers: [String] = [],
    on connection: RawConnection? = nil
  ) async throws -> RawMessage {
    let request = RawConnection.head(
      "GET", "/v1/pull?feed=\(feed)", headers: ["Authorization: Bearer \(token)"] + headers)
    return try await onThread {
      let connection = try connection ?? RawConnection(port: port)
      connection.send(request)
      guard let answer = connection.answer() else { throw NoAnswer() }
      return answer
    }
  }

  private static func metric(_ server: LiveServer, _ line: String) async throws -> Int {
    let answer = try await onThread {
      try RawConnection.exchange(port: server.port, RawConnection.head("GET", "/metrics"))
    }
    return answer?.body.split(separator: "\n").first { $0.hasPrefix(line + " ") }
      .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
  }

  @Test func aConditionalPullIsAnsweredAsTheRouterAnswersIt() async throws {
    let laned = try await LiveServer(faultSwitch: false)
    let routed = try await LiveServer(faultSwitch: true)
    defer { Task { await laned.stop(); await routed.stop() } }
    var heads: [[String?]] = []
    for server in [laned, routed] {
      let install = try await RawInstall("i1", on: server)
      let full = try await Self.pull(install.token, port: server.port)
      let etag = try #require(full.header("ETag"))
      let again = try await Self.pull(
        install.token, port: server.port, headers: ["If-None-Match: \(etag)"])
      #expect(again.status == 304)
      #expect(again.body.isEmpty)
      #expect(again.header("ETag") == etag)
      heads.append(["Cache-Control", "Vary", "Server", "Content-Type"].map { again.header($0) })
      #expect(again.header("Date") != nil)
    }
    #expect(heads[0] == heads[1])
    let notModified = #"ctfo_http_requests_total{route="pull",status="304"}"#
    #expect(try await Self.metric(laned, notModified) == 1)
    #expect(try await Self.metric(routed, notModified) == 1)
    #expect(laned.requests.filter { $0 == "/v1/pull" }.count == 2, "the lane's pull is seen")
  }

  @Test func aFullPullFromMemoryIsTheRoutersBodyInGzipToo() async throws {
    let server = try await LiveServer(faultSwitch: false)
    defer { Task { await server.stop() } }
    let install = try await RawInstall("i1", on: server)
    let first = try await Self.pull(install.token, port: server.port)
    #expect(server.pulls.hitCount == 0, "the first pull builds the shared part, in the router")
    let second = try await Self.pull(install.token, port: server.port)
    #expect(server.pulls.hitCount == 1)
    #expect(second.status == 200)
    #expect(second.header("Content-Length") == String(second.body.utf8.count))
    let decode = { (text: String) throws -> Wire.Pull in
      try JSONDecoder().decode(Wire.Pull.self, from: Data(text.utf8))
    }
    let (a, b) = (try decode(first.body), try decode(second.body))
    #expect(a.cacheKey == b.cacheKey && a.cards == b.cards && a.scores == b.scores)
    #expect(b.full && b.cards.count == 12)
    let zipped = try await Self.pull(
      install.token, port: server.port, headers: ["Accept-Encoding: gzip"])
    #expect(zipped.header("Content-Encoding") == "gzip")
    #expect(zipped.header("ETag") == first.header("ETag").map { $0.dropLast() + "-gzip\"" })
    #expect(server.pulls.hitCount == 2)
  }

  @Test func whatTheLaneCannotTellTheRouterAnswers() async throws {
    let server = try await LiveServer(faultSwitch: false)
    defer { Task { await server.stop() } }
    let install = try await RawInstall("i1", on: server)
    let bad = try await Self.pull("not-a-token", port: server.port)
    #expect(bad.status == 401)
    #expect(bad.body.contains("unauthorized"))
    let feed = try await Self.pull(install.token, port: server.port, feed: "cold")
    #expect(feed.status == 400)
    #expect(feed.body.contains("bad_feed"))
    // A header the lane reads, sent twice: the router joins the two into one token, not valid
    // (where the lane, reading one of them, would say 304).
    let etag = try #require(try await Self.pull(install.token, port: server.port).header("ETag"))
    let twice = try await Self.pull(
      install.token, port: server.port,
      headers: ["Authorization: Bearer \(install.token)", "If-None-Match: \(etag)"])
    #expect(twice.status == 401)
  }

  @Test func aPullBehindARequestTheRouterHasIsAnsweredAfterIt() async throws {
    let server = try await LiveServer(faultSwitch: false)
    defer { Task { await server.stop() } }
    let install = try await RawInstall("i1", on: server)
    let etag = try #require(try await Self.pull(install.token, port: server.port).header("ETag"))
    let events =
      #"[{"event":"card_viewed","properties":{"time":1763900000123,"distinct_id":"x","#
      + #""$insert_id":"e1"}}]"#
    let post = RawConnection.head(
      "POST", "/v1/events", length: events.utf8.count,
      headers: ["Authorization: Bearer \(install.token)", "Content-Type: application/json"])
    let pull = RawConnection.head(
      "GET", "/v1/pull?feed=hot",
      headers: ["Authorization: Bearer \(install.token)", "If-None-Match: \(etag)"])
    let answers = try await onThread {
      let connection = try RawConnection(port: server.port)
      // Both in one write: the pull arrives while the router has the post.
      connection.send(post + events + pull)
      // One read may hold both answers: the first's body then holds the second.
      var text = ""
      while !text.contains("HTTP/1.1 304"), let answer = connection.answer(within: 5) {
        text += answer.head + "\r\n\r\n" + answer.body
      }
      return text
    }
    let posted = try #require(answers.range(of: "num_records_imported"), "\(answers)")
    let pulled = try #require(answers.range(of: "HTTP/1.1 304"), "\(answers)")
    #expect(posted.lowerBound < pulled.lowerBound, "the post's answer comes first")
  }

  @Test func theLaneChargesTheRateAndSaysWhenToComeBack() async throws {
    var settings = LiveServer.settings
    settings.requestsPerMinute = 3
    let server = try await LiveServer(settings: settings, faultSwitch: false)
    defer { Task { await server.stop() } }
    let install = try await RawInstall("i1", on: server)
    let etag = try #require(try await Self.pull(install.token, port: server.port).header("ETag"))
    var statuses: [Int] = []
    for _ in 0..<3 {
      statuses.append(
        try await Self.pull(install.token, port: server.port, headers: ["If-None-Match: \(etag)"])
          .status)
    }
    #expect(statuses == [304, 304, 429])
    let limited = try await Self.pull(
      install.token, port: server.port, headers: ["If-None-Match: \(etag)"])
    #expect(limited.header("Retry-After").flatMap(Int.init).map { (1...60).contains($0) } == true)
    #expect(limited.body.contains("rate_limited"))
  }
}
