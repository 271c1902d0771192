import CTFOServer
import CTFOWire
import Foundation
import HTTP
import SQL
import TestFixtures
import Testing

/// What a client can make the server hold or do has a bound: one live
/// token per install, rates per install and per address whatever the token, credentials on
/// the Mixpanel and GA routes, and pruning of tokens, events and installs. The clock is
/// injected: a window or a retention passes by moving it.
@Suite(.timeLimit(.minutes(1)))
struct ServerGrowthTests {
  typealias TestClock = AnalyticsDeliveryTests.TestClock

  /// A test server on `clock`, with the settings `change` makes.
  static func server(
    _ clock: TestClock, _ change: (inout ServerSettings) -> Void = { _ in }
  ) async throws -> LiveServer {
    var settings = LiveServer.settings
    settings.clock = clock.read
    change(&settings)
    return try await LiveServer(settings: settings)
  }

  @Test func aNewAuthRevokesTheInstallsOlderToken() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let first = try await RawInstall("install-a", on: server)
    #expect(try await first.pull().status == 200, "the token is known, and remembered")
    let second = try await RawInstall("install-a", on: server)
    #expect(try await first.pull().status == 401)
    #expect(try await second.pull().status == 200)
    #expect(second.distinctId == first.distinctId)
  }

  /// The prune finds tokens by expiry and an auth finds the install's older one, each through
  /// an index: with a scan, auth slowed down as the tokens grew.
  @Test func tokensAreFoundByExpiryAndByInstallThroughAnIndex() throws {
    let folder = try TemporaryFolder("ctfo-server")
    _ = try SQLiteCardStore(path: folder.path("server.sqlite"))
    let db = try Connection(path: folder.path("server.sqlite"), role: .readOnly)
    for query in [
      "DELETE FROM tokens WHERE expires_at <= 1", "DELETE FROM tokens WHERE install_id = 'i'",
    ] {
      let plan = try db.rows("EXPLAIN QUERY PLAN " + query) { $0.text(3) ?? "" }
      #expect(plan.contains { $0.contains("USING INDEX") }, "\(query): \(plan)")
    }
  }

  @Test func anInstallPastItsRateIsRefusedWhateverTokenItTakes() async throws {
    let clock = TestClock()
    let server = try await Self.server(clock) { $0.requestsPerMinute = 3 }
    defer { Task { await server.stop() } }
    let a = try await RawInstall("install-a", on: server)
    for _ in 1...3 { #expect(try await a.pull().status == 200) }
    let refused = try await a.pull()
    #expect(refused.status == 429)
    #expect(refused.header("Retry-After").flatMap(Int.init).map { (1...60).contains($0) } == true)
    let again = try await RawInstall("install-a", on: server)
    #expect(try await again.pull().status == 429, "a new token does not start a new window")
    _ = try await RawInstall("install-a", on: server)
    let auth = try await RawInstall.send(RawInstall.authRequest("install-a"), to: server)
    #expect(auth.status == 429, "the fourth auth in a minute")
    let b = try await RawInstall("install-b", on: server)
    #expect(try await b.pull().status == 200, "another install has its own")
    clock.advance(60_000)
    #expect(try await RawInstall("install-a", on: server).pull().status == 200)
  }

  @Test func anAddressPastItsRateIsRefusedWhateverInstallOrRoute() async throws {
    let clock = TestClock()
    let server = try await Self.server(clock) { $0.requestsPerMinutePerAddress = 4 }
    defer { Task { await server.stop() } }
    for i in 1...4 {
      #expect(try await RawInstall.send(RawInstall.authRequest("i\(i)"), to: server).status == 200)
    }
    #expect(try await RawInstall.send(RawInstall.authRequest("i5"), to: server).status == 429)
    #expect(try await RawInstall.send(Self.mixpanel("project-token"), to: server).status == 429)
    #expect(try await RawInstall.send(Self.ga("secret"), to: server).status == 429)
    clock.advance(60_000)
    #expect(try await RawInstall.send(Self.mixpanel("project-token"), to: server).status == 200)
    #expect(try await RawInstall.send(Self.ga("secret"), to: server).status == 204)
  }

  @Test func theMixpanelAndGARoutesKeepOnlyWhatTheSetCredentialsSend() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    #expect(try await RawInstall.send(Self.mixpanel("someone"), to: server).status == 401)
    #expect(try await RawInstall.send(Self.ga("guess"), to: server).status == 204)
    #expect(try server.store.events(sink: "mixpanel").isEmpty)
    #expect(try server.store.events(sink: "ga").isEmpty)
    #expect(try await RawInstall.send(Self.mixpanel("project-token"), to: server).status == 200)
    #expect(try await RawInstall.send(Self.ga("secret"), to: server).status == 204)
    #expect(try server.store.events(sink: "mixpanel").count == 1)
    #expect(try server.store.events(sink: "ga").count == 1)
  }

  @Test func withNoCredentialsSetTheMixpanelAndGARoutesKeepNothing() async throws {
    let server = try await LiveServer(settings: ServerSettings())
    defer { Task { await server.stop() } }
    #expect(try await RawInstall.send(Self.mixpanel("project-token"), to: server).status == 401)
    #expect(try await RawInstall.send(Self.ga("secret"), to: server).status == 204)
    #expect(try server.store.events(sink: "mixpanel").isEmpty)
    #expect(try server.store.events(sink: "ga").isEmpty)
  }

  @Test func eventsPastTheRetentionAndInstallsLeftWithNothingArePruned() async throws {
    let clock = TestClock()
    let server = try await Self.server(clock) { $0.eventsRetention = 7 * Self.day }
    defer { Task { await server.stop() } }
    let (a, b) = try await Self.oneWithAnEventOneWithout(server, clock, thenDays: 8)
    #expect(try server.store.events(sink: "ctfo").isEmpty, "past the retention")
    #expect(try await RawInstall("install-b", on: server).distinctId == b.distinctId)
    // Past the token's lifetime too: A has neither token nor event left, and is forgotten.
    clock.advance(30 * Self.day)
    _ = try await RawInstall("install-c", on: server)
    #expect(try await a.pull().status == 401)
    #expect(try await RawInstall("install-a", on: server).distinctId != a.distinctId)
  }

  @Test func withoutARetentionEventsStayAndSoDoesTheirInstall() async throws {
    let clock = TestClock()
    let server = try await Self.server(clock)
    defer { Task { await server.stop() } }
    let (a, b) = try await Self.oneWithAnEventOneWithout(server, clock, thenDays: 40)
    #expect(try server.store.events(sink: "ctfo").count == 1)
    #expect(try await RawInstall("install-a", on: server).distinctId == a.distinctId)
    #expect(try await RawInstall("install-b", on: server).distinctId != b.distinctId)
  }

  static let day: Int64 = 24 * 3600 * 1000

  /// Install A with one event and B with none; then `days` pass and a third install's auth
  /// finds the pruning due.
  static func oneWithAnEventOneWithout(
    _ server: LiveServer, _ clock: TestClock, thenDays days: Int64
  ) async throws -> (a: RawInstall, b: RawInstall) {
    let a = try await RawInstall("install-a", on: server)
    #expect(try await a.post([("CTFO", "a-1", "c1")]).status == 200)
    let b = try await RawInstall("install-b", on: server)
    clock.advance(days * day)
    _ = try await RawInstall("install-c", on: server)
    return (a, b)
  }

  static func mixpanel(_ user: String) -> HTTPRequest {
    let credentials = Data((user + ":").utf8).base64EncodedString()
    return HTTPRequest(
      method: "POST", path: "/import?strict=1",
      headers: [("Content-Type", "application/json"), ("Authorization", "Basic \(credentials)")],
      body: Array(
        #"[{"event":"TFU","properties":{"time":1763900000123,"distinct_id":"u","$insert_id":"m-1"}}]"#
          .utf8))
  }

  static func ga(_ secret: String) -> HTTPRequest {
    HTTPRequest(
      method: "POST", path: "/mp/collect?measurement_id=G-TEST&api_secret=\(secret)",
      headers: [("Content-Type", "application/json")],
      body: Array(#"{"client_id":"c","events":[{"name":"tfu","params":{"event_id":"g-1"}}]}"#.utf8))
  }
}
