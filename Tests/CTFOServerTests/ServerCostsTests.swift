import Foundation
import Synchronization
import TestFixtures
import Testing

@testable import CTFOServer

/// What a request costs before the limits can refuse it is bounded: the rate limiter's work
/// per request whatever the number of addresses, an `Accept-Encoding` read only so far, the
/// admin token file read to its first line, and dashboard logins rate-limited.
@Suite(.timeLimit(.minutes(1))) struct ServerCostsTests {
  /// The limiter answers as a plain table of windows would, over random keys and times
  /// (seeded): a window per key, a minute long, reset when it ends.
  @Test(arguments: [1, 2, 3, 4, 5]) func theLimiterKeepsEachKeysMinute(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let time = Mutex<Int64>(1_000_000)
    let limiter = RateLimiter(perMinute: 3, clock: { time.withLock { $0 } }, capacity: 50)
    var model: [String: (start: Int64, count: Int)] = [:]
    for step in 0..<5_000 {
      let now = time.withLock { now in
        now += Int64(random.next() % 4_000)
        return now
      }
      let key = "k\(random.next() % 40)"
      var window = model[key] ?? (now, 0)
      if now - window.start >= 60_000 { window = (now, 0) }
      window.count += 1
      model[key] = window
      let expected = window.count > 3 ? Int((window.start + 60_000 - now + 999) / 1000) : nil
      let got = limiter.admit(key)
      #expect(got == expected, "step \(step), \(key) at \(now)")
      if got != expected { return }
    }
  }

  /// Past 100,000 addresses in a minute, each request still costs one lookup: 300,000 take
  /// well under the seconds a scan of the table per request took.
  @Test func theLimiterStaysQuickPastAHundredThousandAddresses() {
    let limiter = RateLimiter(perMinute: 2, clock: { 5_000_000 })
    let start = ContinuousClock.now
    for n in 0..<300_000 { _ = limiter.admit("a\(n)") }
    let took = ContinuousClock.now - start
    #expect(took < .seconds(5), "\(took) for 300,000 addresses")
    #expect(limiter.admit("a7") == nil)
    #expect(limiter.admit("a7") != nil, "the third request of a7 in its minute")
  }

  /// A 78 KB `Accept-Encoding` is not read through: the answer is not compressed.
  @Test func anOverlongAcceptEncodingIsNotRead() {
    let long = String(repeating: "identity;q=0.5, ", count: 5_000) + "gzip"
    #expect(!Routes.acceptsGzip([long]))
    #expect(Routes.acceptsGzip(["br, gzip;q=0.8"]))
  }

  /// The admin token file is read to its first line: a file that goes on (a pipe whose
  /// writer holds it open) does not hold the server's start.
  @Test func theAdminTokenFileIsReadToItsFirstLineOnly() async throws {
    let folder = try TemporaryFolder("ctfo-admin")
    let path = folder.path("token")
    #expect(mkfifo(path, 0o600) == 0)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: path)
      handle?.write(Data("0123456789abcdef0123\nmore".utf8))
      Thread.sleep(forTimeInterval: 60)
      try? handle?.close()
    }
    writer.start()
    let start = ContinuousClock.now
    let hash = try await onThread { try AdminToken.hash(fromFile: path) }
    let took = ContinuousClock.now - start
    #expect(hash == Token.hash("0123456789abcdef0123"))
    #expect(took < .seconds(30), "\(took): read to the end, not to the first line")
  }

  /// Dashboard logins are rate-limited per client address: the eleventh guess in a minute
  /// is refused before it is checked.
  @Test func dashboardLoginsAreRateLimited() async throws {
    var settings = ServerSettings()
    settings.adminTokenHash = Token.hash("the-right-admin-token")
    let server = try await ServerOnLoopback(settings: settings)
    defer { Task { await server.stop() } }
    var statuses: [Int] = []
    for n in 0...Limits.loginsPerMinute {
      let body = "token=guess\(n)"
      let answer = try await server.exchange(
        ServerOnLoopback.head(
          "POST", "/dashboard/login", length: body.utf8.count,
          headers: ["Content-Type: application/x-www-form-urlencoded"]) + body)
      statuses.append(answer?.status ?? 0)
    }
    #expect(statuses.dropLast().allSatisfy { $0 == 401 }, "\(statuses)")
    #expect(statuses.last == 429, "\(statuses)")
  }
}
