import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends bytes as a test writes them, whatever they say:
/// half a body, a head that never ends, nothing at all. Blocking; each wait has a deadline.
public final class RawConnection: Sendable {
  private let socket: Int32

  public init(port: Int) throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard socket >= 0, connected else {
      if socket >= 0 { Glibc.close(socket) }
      throw PeerFailure(description: "cannot connect to 127.0.0.1:\(port): errno \(errno)")
    }
    self.socket = socket
  }

  deinit { Glibc.close(socket) }

  /// Sends what the socket takes within `seconds`; returns the count of bytes sent.
  @discardableResult
  public func send(_ bytes: [UInt8], within seconds: Double = 5) -> Int {
    let end = Date().addingTimeInterval(seconds)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
      if count > 0 {
        sent += count
      } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, Date() < end {
        _ = wait(for: Int16(POLLOUT), until: end)
      } else {
        break
      }
    }
    return sent
  }

  @discardableResult
  public func send(_ text: String, within seconds: Double = 5) -> Int {
    send(Array(text.utf8), within: seconds)
  }

  /// The head of a request to 127.0.0.1 with `headers`, for a body of `length` bytes.
  public static func head(
    _ method: String, _ path: String, length: Int? = nil, headers: [String] = []
  ) -> String {
    let lines =
      ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers
      + (length.map { ["Content-Length: \($0)"] } ?? [])
    return lines.joined(separator: "\r\n") + "\r\n\r\n"
  }

  /// One request on a new connection, and its answer (nil when none came within `seconds`).
  public static func exchange(port: Int, _ request: String, within seconds: Double = 10) throws
    -> RawMessage?
  {
    let connection = try RawConnection(port: port)
    connection.send(request)
    return connection.answer(within: seconds)
  }

  /// Says that nothing more will be sent; the answer can still be read.
  public func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

  /// What the server sends until it closes the connection, an answer is whole (its head and
  /// the body its Content-Length gives), or `seconds` pass; nil when nothing came at all.
  public func answer(within seconds: Double = 10) -> RawMessage? {
    let end = Date().addingTimeInterval(seconds)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while RawMessage(bytes)?.isWhole != true, wait(for: Int16(POLLIN), until: end) {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      bytes += buffer.prefix(count)
    }
    return RawMessage(bytes)
  }

  /// Whether the server closes the connection (an end of stream or a reset) within `seconds`,
  /// reading and dropping whatever it sends before.
  public func isClosedByServer(within seconds: Double) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while wait(for: Int16(POLLIN), until: end) {
      if recv(socket, &buffer, buffer.count, 0) <= 0 { return true }
    }
    return false
  }

  private func wait(for events: Int16, until end: Date) -> Bool {
    let milliseconds = Int32(max(0, end.timeIntervalSinceNow * 1000))
    var descriptor = pollfd(fd: socket, events: events, revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
  }
}

/// An HTTP/1.1 message read raw: an answer a `RawConnection` read, a request a
/// `LoopbackPeer` read.
public struct RawMessage: Sendable {
  /// An answer's status (0 for a request).
  public var status: Int
  public var head: String
  public var body: String
  /// Whether the body is as long as the head's Content-Length says (true without one).
  public var isWhole: Bool

  init?(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return nil }
    head = String(text[..<end.lowerBound])
    body = String(text[end.upperBound...])
    status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    let length = head.split(separator: "\r\n")
      .first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
    isWhole = body.utf8.count >= (length ?? 0)
  }

  /// The value of a header of the answer, by name in any case.
  public func header(_ name: String) -> String? {
    head.split(separator: "\r\n").dropFirst()
      .first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
      .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
  }
}
