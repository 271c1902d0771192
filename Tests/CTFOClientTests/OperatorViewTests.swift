import CTFOServer
import Foundation
import HTTP
import Logging
import SQL
import TestFixtures
import Testing

/// What an operator's tools see of a running server: `/healthz`, `/readyz` (which follows the
/// store), `/metrics` (counters that move with requests, series from fixed names only) and a
/// log that holds no line per request above `debug`.
@Suite(.timeLimit(.minutes(1)))
struct OperatorViewTests {
  private func get(_ server: LiveServer, _ path: String) async throws -> RawMessage {
    let answer = try await onThread {
      try RawConnection.exchange(port: server.port, RawConnection.head("GET", path))
    }
    return try #require(answer, "no answer to GET \(path)")
  }

  /// The value of the series `series` (its name and labels as written) in a `/metrics` text.
  private func value(_ text: String, _ series: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
      .flatMap { Double($0.dropFirst(series.count + 1)) }
  }

  @Test func healthzAndReadyzAnswer200WithoutAToken() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let health = try await get(server, "/healthz")
    #expect(health.status == 200 && health.body == "ok\n", "\(health)")
    let ready = try await get(server, "/readyz")
    #expect(ready.status == 200, "\(ready)")
  }

  /// A store that fails its query makes `/readyz` answer `503` (and counts a store error),
  /// while `/healthz` still answers `200`; once the store answers again, so does `/readyz`,
  /// from its next health check (a check is taken for a second).
  @Test func readyzAnswers503WhileTheStoreFails() async throws {
    let clock = AnalyticsDeliveryTests.TestClock()
    var settings = LiveServer.settings
    settings.clock = clock.read
    let server = try await LiveServer(settings: settings)
    defer { Task { await server.stop() } }
    let db = try Connection(path: server.storePath, role: .reader)
    try db.execute("ALTER TABLE meta RENAME TO meta_away")
    let failing = try await get(server, "/readyz")
    #expect(failing.status == 503, "\(failing)")
    #expect(failing.body.contains("not_ready"), "\(failing)")
    #expect(failing.header("Retry-After") != nil)
    #expect(try await get(server, "/healthz").status == 200)
    let metrics = try await get(server, "/metrics").body
    #expect(value(metrics, "ctfo_store_errors_total") == 1, "\(metrics)")
    try db.execute("ALTER TABLE meta_away RENAME TO meta")
    clock.advance(1_000)
    #expect(try await get(server, "/readyz").status == 200)
  }

  /// Requests move their route's and status's counter and latency histogram; pulls, events
  /// and the open connection are counted; paths a client makes up all fall in one series.
  @Test func metricsCountRequestsByRouteAndStatusOnFixedLabels() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let install = try await RawInstall("i1", on: server)
    let full = try await install.pull()
    #expect(full.status == 200)
    let same = try await install.pull(holding: full.header("ETag"))
    #expect(same.status == 304)
    // Another install's full pull: its shared part comes from memory.
    #expect(try await RawInstall("i2", on: server).pull().status == 200)
    let events = try await install.post(
      body: """
        [{"event":"Card Viewed","properties":{"time":1763900000123,"distinct_id":"x",\
        "$insert_id":"e-1"}},{"event":"","properties":{"time":1763900000123,\
        "distinct_id":"x","$insert_id":"e-2"}}]
        """)
    #expect(events.status == 400)
    let madeUp = (0..<40).map { "/made-up/\($0)-\(UUID().uuidString)" }
    for path in madeUp { #expect(try await get(server, path).status == 404) }
    let answer = try await get(server, "/metrics")
    #expect(answer.status == 200)
    #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
    let text = answer.body
    #expect(value(text, #"ctfo_http_requests_total{route="auth",status="200"}"#) == 2, "\(text)")
    #expect(value(text, #"ctfo_http_requests_total{route="pull",status="200"}"#) == 2)
    #expect(value(text, #"ctfo_http_requests_total{route="pull",status="304"}"#) == 1)
    #expect(value(text, #"ctfo_http_requests_total{route="events",status="400"}"#) == 1)
    #expect(value(text, #"ctfo_http_requests_total{route="other",status="404"}"#) == 40)
    #expect(value(text, #"ctfo_http_request_duration_seconds_count{route="pull"}"#) == 3)
    #expect(value(text, #"ctfo_pulls_served_total{answer="body"}"#) == 2)
    #expect(value(text, #"ctfo_pulls_served_total{answer="not_modified"}"#) == 1)
    #expect(value(text, "ctfo_pulls_from_memory_total") == 1)
    #expect(value(text, #"ctfo_events_ingested_total{sink="ctfo"}"#) == 1)
    #expect(value(text, #"ctfo_events_rejected_total{sink="ctfo"}"#) == 1)
    #expect((value(text, "ctfo_connections_open") ?? 0) >= 1, "the /metrics request's own")
    #expect(!madeUp.contains { text.contains($0) })
    #expect(!text.contains("made-up"))
    let series = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(series.count < 200, "\(series.count) series")
  }

  /// A connection counts while it is open: once the others have closed, only the one asking
  /// `/metrics` does (asked again until the server has seen them close).
  @Test func connectionsOpenComesBackDownWhenTheyClose() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    var held = try (0..<5).map { _ in try RawConnection(port: server.port) }
    let statuses = try await onThread { [held] in
      held.map { connection in
        connection.send(RawConnection.head("GET", "/healthz"))
        return connection.answer(within: 10)?.status
      }
    }
    #expect(statuses == Array(repeating: 200, count: 5))
    let open = value(try await get(server, "/metrics").body, "ctfo_connections_open") ?? 0
    #expect(open >= 6, "five held and the one asking: \(open)")
    held.removeAll()  // closes them
    var last = open
    for _ in 0..<200 where last != 1 {
      last = value(try await get(server, "/metrics").body, "ctfo_connections_open") ?? 0
    }
    #expect(last == 1, "open after the others closed: \(last)")
  }

  /// A request's log line is at `debug`: a server logging at `info` writes none.
  @Test func requestLinesAreAtDebugOnly() async throws {
    let server = try await LiveServer(logRequests: true)
    defer { Task { await server.stop() } }
    #expect(try await get(server, "/healthz").status == 200)
    let lines = server.logs.all.filter { $0.text.contains("/healthz") }
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.level == .debug }, "\(lines)")
  }
}
