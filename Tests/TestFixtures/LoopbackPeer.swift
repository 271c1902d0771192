import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP peer on 127.0.0.1 that takes one connection, keeps the request it read and answers
/// with `answer` (or nothing, when `answer` is nil, until it is stopped); or one connection
/// per answer of `answers`, in turn.
public final class LoopbackPeer: @unchecked Sendable {
  public let port: Int
  private let connected = NSLock()
  private var connectionCount = 0
  private let listener: Int32
  private let lock = NSLock()
  private var received: [[UInt8]] = []
  private let done = DispatchSemaphore(value: 0)
  private let release = DispatchSemaphore(value: 0)

  public convenience init(answer: String?) throws {
    try self.init(answers: [answer])
  }

  public init(answers: [String?]) throws {
    (listener, port) = try Self.listen()
    Thread.detachNewThread { [self] in
      for (i, answer) in answers.enumerated() { serve(answer, last: i == answers.count - 1) }
    }
  }

  /// A socket listening on 127.0.0.1 at a free port, and the port.
  static func listen() throws -> (Int32, Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, size) == 0 && Glibc.listen(listener, 4) == 0
          && getsockname(listener, pointer, &size) == 0
      }
    }
    guard bound else { throw PeerFailure(description: "cannot listen on 127.0.0.1") }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// The request read from `connection` up to its whole body (or the end of the stream).
  static func readRequest(_ connection: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !Self.isWhole(bytes) {
      let count = read(connection, &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer.prefix(count)
    }
    return bytes
  }

  private func serve(_ answer: String?, last: Bool) {
    let connection = accept(listener, nil, nil)
    connected.withLock { connectionCount += 1 }
    let bytes = Self.readRequest(connection)
    lock.withLock { received.append(bytes) }
    done.signal()
    if let answer {
      _ = Array(answer.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    } else {
      release.wait()
    }
    // The listener first: a client that sees this connection end may connect again at once,
    // and must then find nothing listening (a connection queued on a listener about to close
    // is reset instead of refused).
    if last { close(listener) }
    close(connection)
  }

  /// Whether `bytes` hold a head and the body its Content-Length promises.
  private static func isWhole(_ bytes: [UInt8]) -> Bool { RawMessage(bytes)?.isWhole ?? false }

  /// The (first) request as the peer read it, once it has (within ten seconds).
  public func request() -> String? {
    guard done.wait(timeout: .now() + 10) == .success else { return nil }
    return lock.withLock { received.first.map { String(decoding: $0, as: UTF8.self) } }
  }

  /// The requests read so far, in order.
  public var requests: [String] {
    lock.withLock { received.map { String(decoding: $0, as: UTF8.self) } }
  }

  /// Lets a silent peer close its connection.
  public func stop() { release.signal() }

  /// How many connections the peer has accepted so far.
  public var connections: Int { connected.withLock { connectionCount } }
}

/// The peer could not listen.
public struct PeerFailure: Error, CustomStringConvertible {
  public var description: String
}
