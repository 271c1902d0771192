/// A source of the bytes of a response: the socket, or a test's list of pieces.
protocol ByteSource {
  /// The next bytes, at most `limit`; empty at the end of the stream.
  mutating func read(limit: Int) throws(HTTPError) -> [UInt8]
}

/// When an exchange must be over, by a clock that is the system's or a test's.
struct Deadline {
  let instant: ContinuousClock.Instant
  let now: () -> ContinuousClock.Instant

  init(_ instant: ContinuousClock.Instant, now: @escaping () -> ContinuousClock.Instant = { .now })
  {
    self.instant = instant
    self.now = now
  }

  /// No deadline: the reader stops only at its limits.
  static var none: Deadline { Deadline(.now + .seconds(86_400 * 365 * 100)) }

  /// Throws `.timedOut` once the deadline has passed.
  func check() throws(HTTPError) {
    if now() >= instant { throw .timedOut }
  }
}

/// Reads one HTTP/1.1 response (RFC 9112) from a byte source, with limits on the head and
/// the body: a `Content-Length` body, a chunked one, or one that ends when the connection does.
/// Interim (1xx) responses are skipped, up to `Limits.interim` of them.
///
/// The whole exchange has one deadline, checked before every read and between inflation steps:
/// a server that never stops sending (interim answers, one-byte chunks) cannot hold the reader
/// past it, as a socket's wait for data alone would not see it while data keeps coming.
struct ResponseReader<Source: ByteSource> {
  /// The limits on what is read.
  struct Limits {
    var head = 64 * 1024
    var body = 64 * 1024 * 1024
    /// The most interim (1xx) answers taken before the final one.
    var interim = 32
  }

  private var source: Source
  private let limits: Limits
  private let deadline: Deadline
  private var buffer: [UInt8] = []
  private var start = 0

  init(_ source: Source, limits: Limits = Limits(), deadline: Deadline = .none) {
    self.source = source
    self.limits = limits
    self.deadline = deadline
  }

  /// The response to a request made with `method`.
  mutating func response(method: String) throws(HTTPError) -> HTTPResponse {
    var interim = 0
    while true {
      var response = try head()
      if (100..<200).contains(response.status) && response.status != 101 {
        interim += 1
        guard interim <= limits.interim else {
          throw .malformed("more than \(limits.interim) interim (1xx) answers")
        }
        continue
      }
      if method == "HEAD" || response.status == 204 || response.status == 304
        || (100..<200).contains(response.status)
      {
        return response
      }
      response.body = try body(response)
      try decode(&response)
      return response
    }
  }

  /// Undoes a `gzip` content coding, within the same limit as the body read: the answer then
  /// says nothing of the coding (nor of its length). Any other coding is refused (only gzip is ever asked for).
  private func decode(_ response: inout HTTPResponse) throws(HTTPError) {
    let isCoding = { (header: (name: String, value: String)) in
      header.name.lowercased() == "content-encoding"
    }
    let codings = response.headers.filter(isCoding).flatMap {
      $0.value.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
    }.filter { $0 != "identity" }
    guard !codings.isEmpty else { return }
    guard codings == ["gzip"] || codings == ["x-gzip"] else {
      throw .malformed("the content coding '\(codings.joined(separator: ", "))'")
    }
    response.body = try Gzip.inflate(response.body, limit: limits.body, deadline: deadline)
    response.headers.removeAll { isCoding($0) || $0.name.lowercased() == "content-length" }
  }

  // MARK: - Head

  private mutating func head() throws(HTTPError) -> HTTPResponse {
    let lines = try headLines()
    guard let statusLine = lines.first else { throw .malformed("an empty answer") }
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
      parts[1].count == 3, let status = Int(parts[1]), (100...599).contains(status)
    else { throw .malformed("the status line '\(Self.shown(statusLine))'") }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        line[..<colon].allSatisfy({ !$0.isWhitespace })
      else { throw .malformed("the header line '\(Self.shown(line))'") }
      let value = line[line.index(after: colon)...].trimmingWhitespace()
      headers.append((String(line[..<colon]), String(value)))
    }
    return HTTPResponse(status: status, headers: headers)
  }

  /// The lines of the head up to the blank line, as text (Latin-1 bytes kept as they are).
  private mutating func headLines() throws(HTTPError) -> [Substring] {
    // Bytes after `start` already searched: counted from `start`, as `fill` may move both.
    var searched = 0
    while true {
      if let end = Self.find([13, 10, 13, 10], in: buffer, from: start + max(searched - 3, 0)) {
        guard end - start <= limits.head else {
          throw .malformed("a head longer than \(limits.head) bytes")
        }
        let text = String(decoding: buffer[start..<end], as: UTF8.self)
        start = end + 4
        return text.split(separator: "\r\n", omittingEmptySubsequences: false)
      }
      searched = buffer.count - start
      guard buffer.count - start <= limits.head else {
        throw .malformed("a head longer than \(limits.head) bytes")
      }
      guard try fill() else {
        throw .malformed(
          buffer.count == start
            ? "the server closed the connection without answering"
            : "the answer stops inside its head")
      }
    }
  }

  // MARK: - Body

  private mutating func body(_ response: HTTPResponse) throws(HTTPError) -> [UInt8] {
    let codings = response.headers.filter { $0.name.lowercased() == "transfer-encoding" }
    if let last = codings.last {
      guard last.value.lowercased().split(separator: ",").last?.trimmingWhitespace() == "chunked"
      else { throw .malformed("the transfer coding '\(last.value)'") }
      return try chunkedBody()
    }
    let lengths = response.headers.filter { $0.name.lowercased() == "content-length" }
    if let first = lengths.first {
      guard lengths.allSatisfy({ $0.value == first.value }), !first.value.isEmpty,
        first.value.allSatisfy(\.isASCIIDigit), first.value.count <= 18,
        let length = Int(first.value)
      else { throw .malformed("the Content-Length '\(first.value)'") }
      guard length <= limits.body else { throw .tooLarge(limit: limits.body) }
      return try bytes(length)
    }
    repeat {
      guard buffer.count - start <= limits.body else { throw .tooLarge(limit: limits.body) }
    } while try fill()
    defer { start = buffer.count }
    return Array(buffer[start...])
  }

  private mutating func chunkedBody() throws(HTTPError) -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let sizeLine = try line()
      let sizeText = sizeLine.prefix { $0 != ";" }.trimmingWhitespace()
      guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(\.isHexDigit),
        let size = Int(sizeText, radix: 16)
      else { throw .malformed("the chunk size '\(Self.shown(sizeLine))'") }
      if size == 0 { break }
      guard body.count + size <= limits.body else { throw .tooLarge(limit: limits.body) }
      body += try bytes(size)
      guard try line().isEmpty else { throw .malformed("a chunk longer than its size") }
    }
    while try !line().isEmpty {}  // trailer fields, ignored
    return body
  }

  /// The next line without its CRLF.
  private mutating func line() throws(HTTPError) -> Substring {
    while true {
      if let end = Self.find([13, 10], in: buffer, from: start) {
        let text = String(decoding: buffer[start..<end], as: UTF8.self)
        start = end + 2
        return Substring(text)
      }
      guard buffer.count - start <= 4096 else { throw .malformed("a chunk line too long") }
      guard try fill() else { throw .malformed("the answer stops inside its body") }
    }
  }

  private mutating func bytes(_ count: Int) throws(HTTPError) -> [UInt8] {
    // Room for the whole body at once: a large pull otherwise grew the buffer a step at a
    // time, each step a copy and fresh pages (CPU the keys wait for, with no yield point in it).
    if count > buffer.count - start {
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      buffer.reserveCapacity(count)
    }
    while buffer.count - start < count {
      guard try fill(wanted: count - (buffer.count - start)) else {
        throw .malformed("the answer stops inside its body")
      }
    }
    if start == 0 && count == buffer.count {
      // The buffer is the body: handed over, not copied.
      defer { buffer = [] }
      return buffer
    }
    defer { start += count }
    return Array(buffer[start..<(start + count)])
  }

  // MARK: - Buffer

  /// Reads more into the buffer; false at the end of the stream.
  private mutating func fill(wanted: Int = 16 * 1024) throws(HTTPError) -> Bool {
    if start > 64 * 1024 && start * 2 > buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    try deadline.check()
    let more = try source.read(limit: min(max(wanted, 16 * 1024), 256 * 1024))
    buffer += more
    return !more.isEmpty
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    var i = max(from, 0)
    while i <= bytes.count - needle.count {
      if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
        return i
      }
      i += 1
    }
    return nil
  }

  /// A line as it may be quoted in a message: at most 80 characters, controls as `?`.
  private static func shown(_ line: Substring) -> String {
    String(
      line.prefix(80).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0 == "\u{7F}") ? "?" : $0 })
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
  /// Without the spaces and tabs at either end.
  fileprivate func trimmingWhitespace() -> Substring {
    let blank = { (c: Character) in c == " " || c == "\t" }
    let head = drop(while: blank)
    return head.dropLast(head.reversed().prefix(while: blank).count)
  }
}
