@testable import HTTP

/// The HTTP response reader against a server that may never stop: the input is a script of
/// pieces (interim answers, heads, chunks of any size, raw bytes) the server sends, played
/// once or again and again; each read takes some time on a test's clock. Checks that reading
/// ends, that it reads nothing once the deadline has passed, and that an answer read whole has
/// a final status and a body within its limit.
enum DeadlineHarness {
  /// A clock only this harness moves.
  final class Clock {
    var now = ContinuousClock.now
  }

  /// The server: the script's bytes, once or forever, in pieces of `size`, each read `step` on
  /// the clock; traps on a read past `deadline`.
  struct Server: ByteSource {
    let script: [UInt8]
    let forever: Bool
    let size: Int
    let step: Duration
    let clock: Clock
    let deadline: ContinuousClock.Instant
    var offset = 0
    var reads = 0

    mutating func read(limit: Int) throws(HTTPError) -> [UInt8] {
      precondition(clock.now < deadline, "a read after the deadline")
      clock.now += step
      reads += 1
      guard !script.isEmpty else { return [] }
      var out: [UInt8] = []
      let wanted = min(size, limit)
      while out.count < wanted {
        if offset == script.count {
          guard forever else { break }
          offset = 0
        }
        let take = min(wanted - out.count, script.count - offset)
        out += script[offset..<(offset + take)]
        offset += take
      }
      return out
    }
  }

  static let limits = ResponseReader<Server>.Limits(head: 4096, body: 64 * 1024, interim: 32)

  /// The script's bytes: each input byte picks a piece, some take the next byte as a size.
  static func script(_ input: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    var bytes = input.makeIterator()
    while let op = bytes.next() {
      switch op % 10 {
      case 0: out += Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
      case 1: out += Array("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n".utf8)
      case 2: out += Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
      case 3: out += Array("1\r\nx\r\n".utf8)
      case 4:
        let size = Int(bytes.next() ?? 0)
        out += Array("\(String(size, radix: 16))\r\n".utf8)
        out += [UInt8](repeating: 0x61, count: size) + [13, 10]
      case 5: out += Array("0\r\n\r\n".utf8)
      case 6:
        let length = Int(bytes.next() ?? 0) * 300
        out += Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8)
      case 7: out += Array("HTTP/1.0 200 OK\r\n\r\n".utf8)
      case 8: out += [UInt8](repeating: 0x62, count: Int(bytes.next() ?? 0) * 16)
      default: out.append(bytes.next() ?? 0)
      }
    }
    return out
  }

  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 3 else { return }
    let input = Array(bytes)
    let clock = Clock()
    // Up to 255 reads in the time allowed, each of 1 to 512 bytes.
    let step = Duration.milliseconds(Int(input[1] % 64) + 1)
    let deadline = clock.now + step * (Int(input[2]) + 1)
    let server = Server(
      script: script(input[3...]), forever: input[0] & 0x80 != 0,
      size: (Int(input[0] & 0x7F) + 1) * 4, step: step, clock: clock, deadline: deadline)
    var reader = ResponseReader(server, limits: limits, deadline: Deadline(deadline) { clock.now })
    let answer: HTTPResponse
    do {
      answer = try reader.response(method: "GET")
    } catch {
      return
    }
    precondition(clock.now <= deadline + step, "read past the deadline")
    precondition(
      (200...599).contains(answer.status) || answer.status == 101, "status \(answer.status)")
    precondition(answer.body.count <= limits.body, "a body of \(answer.body.count) bytes")
  }
}
