import CTLS
import YieldToUser

#if canImport(Glibc)
  import Glibc
#endif

/// Sends one request to the server and reads its answer, on the calling thread, within a
/// deadline: a new connection per request (`Connection: close`), TLS for `https`, redirects
/// returned as they are (never followed, so a token goes to no other host).
///
/// Blocking by design: the API client runs it on a thread of its own, one request at a time,
/// and the terminal's thread never waits for it.
///
///     let transport = HTTPTransport(endpoint: try Endpoint(parsing: "http://127.0.0.1:8080"))
///     let answer = try transport.send(
///       HTTPRequest(path: "/v1/pull?feed=hot"), deadline: .now + .seconds(10))
public struct HTTPTransport: Sendable {
  public let endpoint: Endpoint
  /// A PEM bundle of the certificate authorities to trust instead of the system's.
  public let authorities: String?
  /// The largest body read.
  public let bodyLimit: Int

  public init(endpoint: Endpoint, authorities: String? = nil, bodyLimit: Int = 64 << 20) {
    self.endpoint = endpoint
    self.authorities = authorities
    self.bodyLimit = bodyLimit
  }

  /// The most bytes one write gives the kernel.
  static let piece = 64 * 1024

  public func send(
    _ request: HTTPRequest, deadline: ContinuousClock.Instant
  ) throws(HTTPError) -> HTTPResponse {
    let bytes = try request.serialized(for: endpoint)
    let socket = try Socket.connect(host: endpoint.host, port: endpoint.port, deadline: deadline)
    defer { socket.close() }
    var stream: any Stream = socket
    if endpoint.scheme == .https {
      stream = try TLSStream(socket: socket, host: endpoint.host, authorities: authorities)
    }
    defer { (stream as? TLSStream)?.free() }
    try stream.handshake(deadline: deadline)
    // In pieces, each a yield point: on a background thread, a 2 MiB batch of events is not
    // one long stretch in the kernel (on loopback, the receiver's side runs in the sender's
    // call) while a key waits for the CPU (Courtesy).
    var written = 0
    while written < bytes.count {
      let piece = bytes[written..<min(written + Self.piece, bytes.count)]
      written += try stream.write(piece, deadline: deadline)
      Courtesy.yieldPoint()
    }
    var limits = ResponseReader<ConnectionBytes>.Limits()
    limits.body = bodyLimit
    var reader = ResponseReader(
      ConnectionBytes(stream: stream, deadline: deadline), limits: limits,
      deadline: Deadline(deadline))
    return try reader.response(method: request.method)
  }
}

/// A connected byte stream with a deadline on every wait.
protocol Stream {
  func handshake(deadline: ContinuousClock.Instant) throws(HTTPError)
  /// Writes some of `bytes` and returns how many.
  func write(_ bytes: ArraySlice<UInt8>, deadline: ContinuousClock.Instant) throws(HTTPError) -> Int
  /// Reads up to `limit` bytes; empty at the end of the stream.
  func read(limit: Int, deadline: ContinuousClock.Instant) throws(HTTPError) -> [UInt8]
}

/// A connection's bytes as `ResponseReader` takes them: each read waits no later than the
/// request's deadline, and is a yield point.
struct ConnectionBytes: ByteSource {
  let stream: any Stream
  let deadline: ContinuousClock.Instant

  mutating func read(limit: Int) throws(HTTPError) -> [UInt8] {
    defer { Courtesy.yieldPoint() }
    return try stream.read(limit: limit, deadline: deadline)
  }
}

/// A non-blocking TCP socket.
struct Socket: Stream {
  let fd: Int32

  /// Connects to the first address of `host` that answers before `deadline`.
  static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(HTTPError)
    -> Socket
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let list else {
      throw .unreachable(
        "cannot find the address of \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    var reason = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let address = entry {
      entry = address.pointee.ai_next
      let fd = socket(
        address.pointee.ai_family,
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
        0)
      guard fd >= 0 else { continue }
      let socket = Socket(fd: fd)
      if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
        return socket
      }
      if errno == EINPROGRESS {
        do {
          try socket.wait(writable: true, deadline: deadline)
          var error: Int32 = 0
          var size = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
          if error == 0 { return socket }
          reason = String(cString: strerror(error))
        } catch {
          socket.close()
          throw error
        }
      } else {
        reason = String(cString: strerror(errno))
      }
      socket.close()
    }
    throw .unreachable("cannot connect to \(host) port \(port): \(reason)")
  }

  func close() { _ = Glibc.close(fd) }

  func handshake(deadline: ContinuousClock.Instant) throws(HTTPError) {}

  func write(_ bytes: ArraySlice<UInt8>, deadline: ContinuousClock.Instant) throws(HTTPError) -> Int
  {
    while true {
      let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count >= 0 { return count }
      guard errno == EAGAIN || errno == EINTR else {
        throw .unreachable("the connection broke: \(String(cString: strerror(errno)))")
      }
      try wait(writable: true, deadline: deadline)
    }
  }

  func read(limit: Int, deadline: ContinuousClock.Instant) throws(HTTPError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: limit)
    while true {
      let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, 0) }
      if count >= 0 { return Array(bytes.prefix(count)) }
      guard errno == EAGAIN || errno == EINTR else {
        throw .unreachable("the connection broke: \(String(cString: strerror(errno)))")
      }
      try wait(writable: false, deadline: deadline)
    }
  }

  /// Waits until the socket can be read (or written), or the deadline passes.
  func wait(writable: Bool, deadline: ContinuousClock.Instant) throws(HTTPError) {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw .timedOut }
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(
        min(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, 60_000))
      var entry = pollfd(fd: fd, events: Int16(writable ? POLLOUT : POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return }
      if ready < 0 && errno != EINTR {
        throw .unreachable("cannot wait for the server: \(String(cString: strerror(errno)))")
      }
    }
  }
}

/// TLS over a connected socket (OpenSSL, through CTLS).
struct TLSStream: Stream {
  let socket: Socket
  let session: OpaquePointer

  init(socket: Socket, host: String, authorities: String?) throws(HTTPError) {
    var message = [CChar](repeating: 0, count: 512)
    guard let session = ctfo_tls_new(socket.fd, host, authorities, &message, message.count) else {
      throw .tls(Self.text(message))
    }
    self.socket = socket
    self.session = session
  }

  func free() { ctfo_tls_free(session) }

  /// The message a CTLS call wrote into `buffer`.
  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func handshake(deadline: ContinuousClock.Instant) throws(HTTPError) {
    var message = [CChar](repeating: 0, count: 512)
    var wantWrite: Int32 = 0
    while true {
      switch ctfo_tls_handshake(session, &wantWrite, &message, message.count) {
      case 1: return
      case 0: try socket.wait(writable: wantWrite != 0, deadline: deadline)
      default: throw .tls(Self.text(message))
      }
    }
  }

  func write(_ bytes: ArraySlice<UInt8>, deadline: ContinuousClock.Instant) throws(HTTPError) -> Int
  {
    var message = [CChar](repeating: 0, count: 512)
    var wantWrite: Int32 = 0
    while true {
      let count = bytes.withUnsafeBytes {
        ctfo_tls_write(session, $0.baseAddress, $0.count, &wantWrite, &message, message.count)
      }
      if count >= 0 { return count }
      guard count == -1 else { throw .tls(Self.text(message)) }
      try socket.wait(writable: wantWrite != 0, deadline: deadline)
    }
  }

  func read(limit: Int, deadline: ContinuousClock.Instant) throws(HTTPError) -> [UInt8] {
    var message = [CChar](repeating: 0, count: 512)
    var wantWrite: Int32 = 0
    var bytes = [UInt8](repeating: 0, count: limit)
    while true {
      let count = bytes.withUnsafeMutableBytes {
        ctfo_tls_read(session, $0.baseAddress, limit, &wantWrite, &message, message.count)
      }
      if count >= 0 { return Array(bytes.prefix(count)) }
      guard count == -1 else { throw .tls(Self.text(message)) }
      try socket.wait(writable: wantWrite != 0, deadline: deadline)
    }
  }
}
