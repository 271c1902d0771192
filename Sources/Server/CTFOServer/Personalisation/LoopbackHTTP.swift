#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small blocking HTTP/1.1 client on one kept-alive connection to 127.0.0.1: what the
/// simulation drives a server with, from a thread of its own.
final class LoopbackHTTP {
  struct Answer {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let port: Int
  private var socket: Int32 = -1
  private var buffer: [UInt8] = []

  init(port: Int) { self.port = port }

  deinit { if socket >= 0 { close(socket) } }

  func request(
    _ method: String, _ path: String, headers: [String] = [], body: [UInt8] = []
  ) throws -> Answer {
    if socket < 0 { try connect() }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for header in headers { head += header + "\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    head += "\r\n"
    do {
      try send(Array(head.utf8) + body)
      return try readAnswer(method: method)
    } catch {
      // A connection the server closed (idle): once more on a new one.
      close(socket)
      socket = -1
      buffer = []
      try connect()
      try send(Array(head.utf8) + body)
      return try readAnswer(method: method)
    }
  }

  private func connect() throws {
    #if canImport(Glibc)
      let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        #if canImport(Glibc)
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #else
          Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #endif
      }
    }
    guard result == 0 else {
      close(fd)
      throw Failure(description: "connect to 127.0.0.1:\(port): \(errno)")
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    socket = fd
  }

  private func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.send(socket, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        #else
          Darwin.send(socket, raw.baseAddress, raw.count, 0)
        #endif
      }
      guard n > 0 else { throw Failure(description: "send: \(errno)") }
      sent += n
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw Failure(description: "the server closed the connection") }
    buffer += chunk[..<n]
  }

  private func line() throws -> String {
    while true {
      if let end = buffer.indices.dropFirst().first(where: {
        buffer[$0 - 1] == 13 && buffer[$0] == 10
      }) {
        let text = String(decoding: buffer[..<(end - 1)], as: UTF8.self)
        buffer.removeFirst(end + 1)
        return text
      }
      try fill()
    }
  }

  private func bytes(_ count: Int) throws -> [UInt8] {
    while buffer.count < count { try fill() }
    let taken = Array(buffer[..<count])
    buffer.removeFirst(count)
    return taken
  }

  private func readAnswer(method: String) throws -> Answer {
    let status = try line().split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    var headers: [(String, String)] = []
    while true {
      let text = try line()
      if text.isEmpty { break }
      guard let colon = text.firstIndex(of: ":") else { continue }
      headers.append(
        (String(text[..<colon]), String(text[text.index(after: colon)...]).trimmingSpaces))
    }
    var answer = Answer(status: status, headers: headers, body: [])
    if method == "HEAD" || status == 304 || status == 204 { return answer }
    if let length = answer.header("Content-Length").flatMap({ Int($0) }) {
      answer.body = try bytes(length)
    } else if answer.header("Transfer-Encoding")?.lowercased() == "chunked" {
      while true {
        let size = Int(try line().split(separator: ";").first ?? "0", radix: 16) ?? 0
        if size == 0 {
          while try !line().isEmpty {}
          break
        }
        answer.body += try bytes(size)
        _ = try line()
      }
    }
    if answer.header("Connection")?.lowercased() == "close" {
      close(socket)
      socket = -1
      buffer = []
    }
    return answer
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
