import Foundation
import Testing

@testable import HTTP

/// A TCP peer on 127.0.0.1 that takes one connection, keeps the request it read and answers
/// with `answer` (or nothing, when `answer` is nil, until it is stopped).
final class LoopbackPeer: @unchecked Sendable {
  let port: Int
  private let listener: Int32
  private let lock = NSLock()
  private var received: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)
  private let release = DispatchSemaphore(value: 0)

  init(answer: String?) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
    guard bound else { throw HTTPError.unreachable("cannot listen") }
    self.listener = listener
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in serve(answer) }
  }

  private func serve(_ answer: String?) {
    let connection = accept(listener, nil, nil)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !Self.isWhole(bytes) {
      let count = read(connection, &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer.prefix(count)
    }
    lock.withLock { received = bytes }
    done.signal()
    if let answer {
      _ = Array(answer.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    } else {
      release.wait()
    }
    close(connection)
    close(listener)
  }

  /// Whether `bytes` hold a head and the body its Content-Length promises.
  private static func isWhole(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    let length = text[..<end.lowerBound].split(separator: "\r\n")
      .first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
    return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound)
      >= (length ?? 0)
  }

  /// The request as the peer read it, once it has (within ten seconds).
  func request() -> String? {
    guard done.wait(timeout: .now() + 10) == .success else { return nil }
    return lock.withLock { String(decoding: received, as: UTF8.self) }
  }

  /// Lets a silent peer close its connection.
  func stop() { release.signal() }
}

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
