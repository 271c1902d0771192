import Foundation
import Synchronization
import TestFixtures
import Testing

@testable import CTFOServer

/// What one client's requests may cost every other client: upload memory reserved only once
/// the route and the caller are known, rates per address behind a trusted proxy, and auths
/// and small posts that never queue behind bulk uploads. Each test speaks raw HTTP to the
/// server's routes and HTTP stack on loopback.
@Suite(.timeLimit(.minutes(1))) struct ServerLimitsTests {
  typealias Server = ServerOnLoopback

  /// Sixteen connections without a token each declare a body to a path no route takes, or to
  /// `/v1/events`, send a byte and hold: nothing is reserved for them, and another client's
  /// auth and batch of events are taken.
  @Test func unauthenticatedHeldBodiesReserveNothingOthersNeed() async throws {
    var settings = ServerSettings()
    settings.uploadMemory = 1 << 20
    let server = try await Server(settings: settings)
    defer { Task { await server.stop() } }
    let token = try await server.token("client")
    var held: [RawConnection] = []
    for n in 0..<16 {
      let connection = try RawConnection(port: server.port)
      let path = n % 2 == 0 ? "/nowhere" : "/v1/events"
      connection.send(Server.head("POST", path, length: 1 << 20) + "[")
      held.append(connection)
    }
    // Each head has reached the server once a request sent after it is answered.
    _ = try await server.exchange(Server.head("GET", "/healthz"))
    let events = try await server.exchange(Server.events(1_000, token: token))
    #expect(events?.status == 200, "\(String(describing: events))")
    let auth = try await server.exchange(Server.auth("another"))
    #expect(auth?.status == 200, "\(String(describing: auth))")
    withExtendedLifetime(held) {}
  }

  /// One client address not known may have a few bodies read at once: its ninth is refused
  /// (`503`) while another address's auth is taken.
  @Test func oneStrangersAddressHoldsAFewBodiesAtMost() async throws {
    var settings = ServerSettings()
    settings.trustedProxies = ["127.0.0.1"]
    let server = try await Server(settings: settings)
    defer { Task { await server.stop() } }
    let from = "X-Forwarded-For: 10.0.0.7"
    var held: [RawConnection] = []
    for _ in 0..<Uploads.anonymousPerAddress {
      let connection = try RawConnection(port: server.port)
      connection.send(Server.head("POST", "/v1/auth", length: 1_000, headers: [from]) + "{")
      held.append(connection)
    }
    // The held heads have reached the server once a request sent after them is answered.
    _ = try await server.exchange(Server.head("GET", "/healthz"))
    let body = String(repeating: " ", count: 1_000)
    let ninth = try await server.exchange(
      Server.head("POST", "/v1/auth", length: 1_000, headers: [from]) + body)
    #expect(ninth?.status == 503, "\(String(describing: ninth))")
    let other = try await server.exchange(
      Server.auth("other", headers: ["X-Forwarded-For: 10.0.0.8"]))
    #expect(other?.status == 200, "\(String(describing: other))")
    withExtendedLifetime(held) {}
  }

  /// Behind a trusted proxy, the rate per address is the client's (the right-most
  /// `X-Forwarded-For` address not a trusted proxy), not the proxy's; a request with a valid
  /// token is charged to its install alone.
  @Test func behindATrustedProxyOneClientsFloodLimitsThatClientOnly() async throws {
    var settings = ServerSettings()
    settings.requestsPerMinutePerAddress = 3
    settings.trustedProxies = ["127.0.0.1"]
    let server = try await Server(settings: settings)
    defer { Task { await server.stop() } }
    let token = try await server.token("normal")
    let flood = Server.head("GET", "/v1/pull", headers: ["X-Forwarded-For: 10.0.0.1"])
    var statuses: [Int] = []
    for _ in 0..<5 { statuses.append(try await server.exchange(flood)?.status ?? 0) }
    #expect(statuses == [401, 401, 401, 429, 429])
    // What the client says left of the proxy's entry changes nothing.
    let spoofed = Server.head(
      "GET", "/v1/pull", headers: ["X-Forwarded-For: 10.9.9.9, 10.0.0.1"])
    #expect(try await server.exchange(spoofed)?.status == 429)
    let other = try await server.exchange(
      Server.auth("other", headers: ["X-Forwarded-For: 10.0.0.2"]))
    #expect(other?.status == 200, "another client behind the proxy")
    // The client's own requests, with its token: its install's rate, not the address's.
    for _ in 0..<6 {
      let pull = try await server.exchange(
        Server.head(
          "GET", "/v1/pull",
          headers: ["Authorization: Bearer \(token)", "X-Forwarded-For: 10.0.0.1"]))
      #expect(pull?.status == 200, "\(String(describing: pull))")
    }
  }

  /// Without a trusted proxy, `X-Forwarded-For` is what anyone may say: ignored.
  @Test func xForwardedForFromAnUntrustedPeerIsIgnored() async throws {
    var settings = ServerSettings()
    settings.requestsPerMinutePerAddress = 2
    let server = try await Server(settings: settings)
    defer { Task { await server.stop() } }
    var statuses: [Int] = []
    for n in 0..<3 {
      let request = Server.head("GET", "/v1/pull", headers: ["X-Forwarded-For: 10.0.0.\(n)"])
      statuses.append(try await server.exchange(request)?.status ?? 0)
    }
    #expect(statuses == [401, 401, 429])
  }

  /// While a bulk upload holds the one work gate for bulk bodies, another client's auth and
  /// single event are answered at once.
  @Test func authsAndSmallPostsDoNotQueueBehindBulkUploads() async throws {
    var settings = ServerSettings()
    settings.concurrentUploads = 1
    let held = Mutex<HeldStore?>(nil)
    let server = try await Server(settings: settings) { base in
      let store = HeldStore(base)
      held.withLock { $0 = store }
      return store
    }
    defer { Task { await server.stop() } }
    let store = try #require(held.withLock { $0 })
    defer { store.release() }
    let loader = try await server.token("loader")
    let small = try await server.token("small")
    let port = server.port
    Thread.detachNewThread {
      _ = try? RawConnection.exchange(port: port, Server.events(2_000, token: loader), within: 30)
    }
    try await within("the bulk upload to be held") {
      while store.held == 0 { await Task.yield() }
    }
    let auth = try await server.exchange(Server.auth("newcomer"), within: 5)
    #expect(auth?.status == 200, "\(String(describing: auth))")
    let single = try await server.exchange(Server.events(1, token: small, tag: "s"), within: 5)
    #expect(single?.status == 200, "\(String(describing: single))")
  }
}
