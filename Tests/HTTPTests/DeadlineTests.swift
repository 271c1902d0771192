import Foundation
import Testing

@testable import HTTP

/// A clock a test moves: each read of an `Endless` source takes `step`.
final class TestClock: @unchecked Sendable {
  // Read and moved on the reader's one thread only.
  private(set) var now = ContinuousClock.now
  func advance(by step: Duration) { now += step }
}

/// A server that never stops: `prefix`, then `pattern` again and again, up to `total` bytes,
/// each read taking `step` on `clock`.
struct Endless: ByteSource {
  let prefix: [UInt8]
  let pattern: [UInt8]
  var total: Int
  let clock: TestClock
  let step: Duration
  private(set) var sent = 0
  private(set) var reads = 0

  init(prefix: String = "", pattern: String, total: Int, clock: TestClock, step: Duration) {
    self.prefix = Array(prefix.utf8)
    self.pattern = Array(pattern.utf8)
    self.total = total
    self.clock = clock
    self.step = step
  }

  mutating func read(limit: Int) throws(HTTPError) -> [UInt8] {
    clock.advance(by: step)
    reads += 1
    var out: [UInt8] = []
    while out.count < limit && sent < total {
      if sent < prefix.count {
        out.append(prefix[sent])
      } else {
        out.append(pattern[(sent - prefix.count) % pattern.count])
      }
      sent += 1
    }
    return out
  }
}

/// One deadline for the whole exchange, and a cap on interim answers: a server that keeps
/// sending cannot hold the reader past either.
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
  private static let interim = "HTTP/1.1 100 Continue\r\n\r\n"
  private static let hints = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"

  @Test(arguments: [interim, hints])
  func endlessInterimAnswersAreRefusedPastTheCap(pattern: String) {
    let clock = TestClock()
    // Far more than the cap, then the connection ends (without the cap: an unanswered end).
    let source = Endless(pattern: pattern, total: 4 << 20, clock: clock, step: .zero)
    var reader = ResponseReader(source, deadline: Deadline(clock.now + .seconds(5)) { clock.now })
    #expect {
      try reader.response(method: "GET")
    } throws: { error in
      "\(error)".contains("more than 32 interim (1xx) answers")
    }
  }

  @Test func interimAnswersUpToTheCapThenTheAnswer() throws {
    let text =
      String(repeating: Self.hints, count: 32) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    var reader = ResponseReader(Pieces(bytes: Array(text.utf8), sizes: [7, 100, 3]))
    let answer = try reader.response(method: "GET")
    #expect(answer.status == 200 && answer.body == Array("ok".utf8))
  }

  /// One-byte chunks arriving as fast as they are read: the reader stops at the deadline, not
  /// at the body limit, and reads nothing once it has passed.
  @Test(arguments: [20, 250])
  func oneByteChunksStopAtTheDeadline(milliseconds: Int) {
    let clock = TestClock()
    let deadline = clock.now + .seconds(5)
    var reader = ResponseReader(
      Endless(
        prefix: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", pattern: "1\r\nx\r\n",
        total: 16 << 20, clock: clock, step: .milliseconds(milliseconds)),
      deadline: Deadline(deadline) { clock.now })
    #expect(throws: HTTPError.timedOut) { try reader.response(method: "GET") }
    #expect(clock.now < deadline + .milliseconds(milliseconds))
  }

  /// An endless flood through a real socket: the transport's deadline holds, whatever the
  /// server keeps sending.
  @Test(arguments: [
    interim, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
  ])
  func aFloodOverTheNetworkEndsAtTheDeadline(head: String) throws {
    let flood = try FloodPeer(
      head: head, pattern: head.hasPrefix("HTTP/1.1 100") ? head : "1\r\nx\r\n")
    defer { flood.stop() }
    let transport = HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:\(flood.port)"))
    let start = ContinuousClock.now
    let deadline = start + .milliseconds(500)
    #expect {
      try transport.send(HTTPRequest(path: "/v1/pull"), deadline: deadline)
    } throws: { error in
      error as? HTTPError == .timedOut || "\(error)".contains("interim")
    }
    #expect(ContinuousClock.now - start < .seconds(3))
  }
}

/// A server on 127.0.0.1 that answers one connection with `head`, then `pattern` over and over
/// until the client goes or 20 seconds pass.
final class FloodPeer: @unchecked Sendable {
  let port: Int
  private let listener: Int32
  private let stopped = NSLock()
  private var isStopped = false

  init(head: String, pattern: String) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, size) == 0 && listen(listener, 4) == 0
          && getsockname(listener, pointer, &size) == 0
      }
    }
    guard bound else { throw HTTPError.unreachable("cannot listen on 127.0.0.1") }
    port = Int(UInt16(bigEndian: address.sin_port))
    let head = Array(head.utf8)
    var piece: [UInt8] = []
    while piece.count < 64 * 1024 { piece += Array(pattern.utf8) }
    Thread.detachNewThread { [self, listener, piece] in
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      defer { close(connection) }
      let until = ContinuousClock.now + .seconds(20)
      guard Self.send(head, to: connection) else { return }
      while ContinuousClock.now < until && !stopped.withLock({ isStopped }) {
        guard Self.send(piece, to: connection) else { return }
      }
    }
  }

  private static func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
    bytes.withUnsafeBytes {
      Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count
    }
  }

  func stop() {
    stopped.withLock { isStopped = true }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }
}
