import Foundation
import Synchronization
import Testing
import TestFixtures

#if canImport(Glibc)
  import Glibc
#endif

/// The release `ctfo-server` on loopback under what hostile clients do: bodies held open, bodies of a million tiny elements, idle connections past the
/// limit of open files, a body trickling through a SIGTERM. Each test is bounded in count
/// and time, and checks that a normal client's `304` stays fast while it runs (p50 under
/// 50 ms) and the server's memory stays under 200 MB.
@Suite(.serialized) struct ServerAbuseTests {
  /// The most a test lets the server's resident memory reach, at its peak.
  static let memoryCeiling = 200 << 20

  /// A client as ctfo is: authenticated once, then asking for changes with its ETag.
  struct NormalClient {
    let port: Int
    let token: String
    let eTag: String

    init(port: Int, install: String = "normal") throws {
      self.port = port
      let body =
        #"{"installId":"\#(install)","device":{"platform":"linux","app":"t","locale":"C"},"user":{},"clientTime":0}"#
      let auth = try RawConnection.exchange(
        port: port, ServerAbuseTests.head("POST", "/v1/auth", length: body.utf8.count) + body)
      let json = try JSONSerialization.jsonObject(with: Data((auth?.body ?? "").utf8))
      token = try #require((json as? [String: Any])?["token"] as? String)
      // The install's first scores are made after its auth, off the request path, and move
      // its key: pull (as the client does after its auth) until they are in, then keep that key.
      let full = ServerAbuseTests.head("GET", "/v1/pull", headers: ["Authorization: Bearer \(token)"])
      var pull = try RawConnection.exchange(port: port, full)
      let end = Date().addingTimeInterval(10)
      while pull?.body.contains(#""scores":[{"#) != true, Date() < end {
        Thread.sleep(forTimeInterval: 0.05)
        pull = try RawConnection.exchange(port: port, full)
      }
      let eTag = try #require(pull?.header("ETag"), "\(String(describing: pull))")
      self.eTag = eTag
    }

    /// The seconds each of `count` pulls took to its `304`, each on a new connection;
    /// infinity for one that got no `304` within five seconds.
    func pulls(_ count: Int) throws -> [Double] {
      let request = ServerAbuseTests.head(
        "GET", "/v1/pull", headers: ["Authorization: Bearer \(token)", "If-None-Match: \(eTag)"])
      return try (0..<count).map { _ in
        let start = Date()
        let answer = try RawConnection.exchange(port: port, request, within: 5)
        return answer?.status == 304 ? Date().timeIntervalSince(start) : .infinity
      }
    }

    func medianPull(of count: Int) throws -> Double {
      try pulls(count).sorted()[count / 2]
    }
  }

  static func head(
    _ method: String, _ path: String, length: Int? = nil, headers: [String] = []
  ) -> String {
    RawConnection.head(method, path, length: length, headers: headers)
  }

  /// The peak resident memory of process `pid` so far, in bytes (VmHWM).
  static func peakMemory(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
  }

  /// The CPU time process `pid` has used so far, in seconds (user and system).
  static func cpuSeconds(_ pid: Int32) -> Double {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // The fields after the command's closing parenthesis; utime and stime are 14 and 15.
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12])
    else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Raises this process's soft limit of open files to its hard one; returns the limit.
  static func openFileLimit() -> Int {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { return 1024 }
    limit.rlim_cur = min(limit.rlim_max, 1 << 16)
    _ = setrlimit(resource, &limit)
    return Int(limit.rlim_cur)
  }

  /// 1,000 connections of another install each declare a 2 MiB batch of events, send a
  /// quarter of it and hold: the server refuses what it cannot hold (`503`, or `429` past the
  /// install's rate) before reading it, its memory stays under 200 MB, and a normal client's
  /// `304` stays under 50 ms (p50) meanwhile.
  @Test func heldBodiesNeitherExhaustMemoryNorStallOthers() throws {
    let server = try ServerProcess(deck: ServerFaultTests.deck)
    defer { server.stop() }
    let client = try NormalClient(port: server.port)
    let holder = try NormalClient(port: server.port, install: "holder")
    let count = min(1000, Self.openFileLimit() - 200)
    let head = Self.head(
      "POST", "/v1/events", length: 2 << 20, headers: ["Authorization: Bearer \(holder.token)"])
    let part = [UInt8](repeating: 0x20, count: 512 << 10)
    var held: [RawConnection] = []
    for _ in 0..<count {
      let connection = try RawConnection(port: server.port)
      connection.send(head, within: 1)
      connection.send(part, within: 0.05)
      held.append(connection)
    }
    let median = try client.medianPull(of: 21)
    let peak = Self.peakMemory(server.pid)
    #expect(peak < Self.memoryCeiling, "peak RSS \(peak >> 20) MB with \(count) bodies held")
    #expect(median < 0.05, "304 p50 \(median) s while \(count) bodies are held")
    withExtendedLifetime(held) {}
  }

  /// Sixteen clients post, one after another, batches of 2 MiB holding 700,000 empty
  /// elements: each is refused for its count before any parse (a few milliseconds of the
  /// server's CPU, not a second), memory stays under 200 MB, and a normal client's `304`
  /// stays under 50 ms (p50) meanwhile.
  @Test func batchesOfTinyElementsAreRefusedCheaply() throws {
    let server = try ServerProcess(deck: ServerFaultTests.deck)
    defer { server.stop() }
    let client = try NormalClient(port: server.port)
    let elements = (2 << 20) / 3 - 1
    let body = Array(("[" + String(repeating: "{},", count: elements) + "{}]").utf8)
    let request =
      Array(
        Self.head(
          "POST", "/v1/events", length: body.count,
          headers: ["Authorization: Bearer \(client.token)"]
        ).utf8) + body
    let port = server.port
    let cpuBefore = Self.cpuSeconds(server.pid)
    let stop = Flag()
    let refusals = Tally()
    let attackers = DispatchGroup()
    for _ in 0..<16 {
      attackers.enter()
      Thread.detachNewThread {
        defer { attackers.leave() }
        while !stop.isRaised, refusals.count < 400 {
          guard let connection = try? RawConnection(port: port) else { return }
          connection.send(request, within: 10)
          let answer = connection.answer(within: 10)
          refusals.add(
            answer?.status == 400 && answer?.body.contains("events: at most 2000") == true)
        }
      }
    }
    let median = try client.medianPull(of: 21)
    stop.raise()
    attackers.wait()
    let cpu = Self.cpuSeconds(server.pid) - cpuBefore
    let (refused, other) = (refusals.count, refusals.others)
    #expect(refused >= 16 && other == 0, "\(refused) refused for their count, \(other) not")
    #expect(cpu / Double(max(refused, 1)) < 0.05, "\(cpu) s of CPU for \(refused) batches")
    #expect(Self.peakMemory(server.pid) < Self.memoryCeiling)
    #expect(median < 0.05, "304 p50 \(median) s while batches of tiny elements come")
  }

  /// Five clients post legal batches of 2,000 events, one after another and each within its
  /// rate: a normal client's `304` stays under 50 ms (p50) meanwhile.
  @Test func legalBatchesFromFiveClientsLeaveRoomForOthers() throws {
    let server = try ServerProcess(deck: ServerFaultTests.deck)
    defer { server.stop() }
    let client = try NormalClient(port: server.port)
    let port = server.port
    let loaders = try (1...5).map { try NormalClient(port: port, install: "load\($0)") }
    let stop = Flag()
    let taken = Tally()
    let senders = DispatchGroup()
    for (n, loader) in loaders.enumerated() {
      senders.enter()
      Thread.detachNewThread {
        defer { senders.leave() }
        var batch = 0
        while !stop.isRaised, batch < 100 {
          batch += 1
          let now = Int(Date().timeIntervalSince1970 * 1000)
          let events = (0..<2000).map {
            #"{"event":"focus","properties":{"time":\#(now),"distinct_id":"d\#(n)","$insert_id":"l\#(n)-\#(batch)-\#($0)"}}"#
          }
          let body = "[" + events.joined(separator: ",") + "]"
          let request =
            Self.head(
              "POST", "/v1/events", length: body.utf8.count,
              headers: ["Authorization: Bearer \(loader.token)"]) + body
          let answer = try? RawConnection.exchange(port: port, request, within: 30)
          taken.add(answer?.status == 200)
        }
      }
    }
    let median = try client.medianPull(of: 21)
    stop.raise()
    senders.wait()
    #expect(taken.count >= 5, "\(taken.count) batches taken, \(taken.others) not")
    #expect(median < 0.05, "304 p50 \(median) s while five clients post batches")
  }

  /// Started with a soft limit of 256 open files, the server takes 300 idle connections and
  /// still answers a normal client at once: it raised its limit to the hard one.
  @Test func idleConnectionsPastTheSoftLimitOfOpenFilesLeaveRoomForOthers() throws {
    let server = try ServerProcess(deck: ServerFaultTests.deck, openFiles: 256)
    defer { server.stop() }
    let client = try NormalClient(port: server.port)
    _ = Self.openFileLimit()
    let idle = try (0..<300).map { _ in try RawConnection(port: server.port) }
    let median = try client.medianPull(of: 5)
    #expect(median < 0.05, "304 p50 \(median) s with \(idle.count) idle connections")
  }

  /// Under a hard limit of 128 open files, 150 idle connections fill what the server may hold:
  /// it stops accepting, says so in its log, and does not spin (its accept failed at once,
  /// again and again, with nothing logged); once they close, a normal
  /// client is answered.
  @Test func aFullFileTableStopsAcceptingWithoutSpinning() throws {
    let log = NSTemporaryDirectory() + "ctfo-server-" + UUID().uuidString + ".log"
    defer { try? FileManager.default.removeItem(atPath: log) }
    let server = try ServerProcess(
      deck: ServerFaultTests.deck, openFiles: 128, hardLimit: true, log: log)
    defer { server.stop() }
    _ = Self.openFileLimit()
    var idle = try (0..<150).map { _ in try RawConnection(port: server.port) }
    // Each connection the server takes is answered: a HEAD /healthz on the last taken.
    _ = idle.first?.send(Self.head("HEAD", "/healthz"))
    _ = idle.first?.answer(within: 5)
    let before = Self.cpuSeconds(server.pid)
    Thread.sleep(forTimeInterval: 2)
    let spent = Self.cpuSeconds(server.pid) - before
    #expect(spent < 0.3, "\(spent) s of CPU in 2 s with a full file table")
    let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(said.contains("connections open"), "\(said)")
    idle.removeAll()
    let client = try NormalClient(port: server.port)
    #expect(try client.medianPull(of: 3) < 0.5)
  }

  /// A SIGTERM while a client holds its body half-sent ends the server within its drain
  /// deadline (5 s), not when the client chooses.
  @Test func sigtermEndsTheServerWhileABodyIsHeldOpen() throws {
    let server = try ServerProcess(deck: ServerFaultTests.deck, options: ["--test-faults"])
    let client = try NormalClient(port: server.port)
    let connection = try RawConnection(port: server.port)
    connection.send(
      Self.head(
        "POST", "/v1/events", length: 1000, headers: ["Authorization: Bearer \(client.token)"])
        + "[")
    let start = Date()
    while try server.log().inFlight == 0, Date().timeIntervalSince(start) < 10 {}
    #expect(server.stop(within: 15), "ctfo-server still running 15 s after SIGTERM")
    withExtendedLifetime(connection) {}
  }

  /// Set once, read by the other threads.
  final class Flag: Sendable {
    private let value = Mutex(false)
    var isRaised: Bool { value.withLock { $0 } }
    func raise() { value.withLock { $0 = true } }
  }

  /// Counts answers: those that were what the test expects, and the others.
  final class Tally: Sendable {
    private let counts = Mutex((expected: 0, others: 0))
    var count: Int { counts.withLock { $0.expected } }
    var others: Int { counts.withLock { $0.others } }
    func add(_ expected: Bool) {
      counts.withLock { if expected { $0.expected += 1 } else { $0.others += 1 } }
    }
  }
}
