import Foundation
import Testing

@testable import HTTP

/// gzip bodies: inflated within the body limit, a bomb refused, a corrupt body an error.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/gzip")))
struct GzipTests {
  /// What `gzip -c` makes of what `producer` (a shell command) writes.
  private static func gzip(_ producer: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "\(producer) | /bin/gzip -c"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let bytes = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return Array(bytes)
  }

  private static func answer(_ body: [UInt8], coding: String = "gzip") -> [UInt8] {
    Array(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: \(coding)\r\nVary: Accept-Encoding\r\nContent-Length: \(body.count)\r\n\r\n"
        .utf8) + body
  }

  private func read(_ bytes: [UInt8], body limit: Int = 64 << 20, sizes: [Int] = [])
    throws(HTTPError) -> HTTPResponse
  {
    var limits = ResponseReader<Pieces>.Limits()
    limits.body = limit
    var reader = ResponseReader(Pieces(bytes: bytes, sizes: sizes), limits: limits)
    return try reader.response(method: "GET")
  }

  @Test func aGzipBodyIsInflatedAndTheCodingDropped() throws {
    let text = String(repeating: "{\"id\":\"card\",\"body\":\"a line of text\"},", count: 2000)
    let packed = try Self.gzip("printf '%s' '\(text)'")
    #expect(packed.count < text.utf8.count / 10)
    let response = try read(Self.answer(packed), sizes: Array(repeating: 700, count: 100))
    #expect(response.body == Array(text.utf8))
    #expect(response.header("Content-Encoding") == nil)
    #expect(response.header("Content-Length") == nil)
    #expect(response.header("Vary") == "Accept-Encoding")
  }

  @Test func aBodyOfExactlyTheLimitInflatesOneByteMoreIsRefused() throws {
    let packed = try Self.gzip("head -c 5000 /dev/zero")
    #expect(try read(Self.answer(packed), body: 5000).body == [UInt8](repeating: 0, count: 5000))
    #expect(throws: HTTPError.tooLarge(limit: 4999)) {
      try read(Self.answer(packed), body: 4999)
    }
  }

  /// 100 MB of zeros in about 100 KB: refused once the inflated bytes reach the limit.
  @Test func aGzipBombIsRefusedAtTheLimit() throws {
    let bomb = try Self.gzip("head -c 104857600 /dev/zero")
    #expect(bomb.count < 200_000)
    #expect(throws: HTTPError.tooLarge(limit: 1 << 20)) {
      try read(Self.answer(bomb), body: 1 << 20)
    }
    #expect(throws: HTTPError.tooLarge(limit: 1 << 20)) {
      try Gzip.inflate(bomb, limit: 1 << 20)
    }
  }

  /// RFC 1952 allows members one after the other: the body is their texts joined, within the
  /// same limit for all of them.
  @Test func aBodyOfSeveralMembersIsTheirTextsJoined() throws {
    let first = try Self.gzip("printf '%s' 'first member, '")
    let second = try Self.gzip("printf '%s' 'second member'")
    let joined = first + second + first
    let text = "first member, second memberfirst member, "
    #expect(try read(Self.answer(joined)).body == Array(text.utf8))
    #expect(
      try read(Self.answer(joined), sizes: Array(repeating: 5, count: 100)).body
        == Array(text.utf8))
    #expect(throws: HTTPError.tooLarge(limit: text.utf8.count - 1)) {
      try read(Self.answer(joined), body: text.utf8.count - 1)
    }
    #expect {
      try read(Self.answer(first + Array(second.dropLast(3))))
    } throws: { "\($0)".contains("gzip") }
  }

  /// Inflating is part of the exchange: it stops at the deadline, each step of it checked.
  @Test func inflationStopsAtTheDeadline() throws {
    let bomb = try Self.gzip("head -c 104857600 /dev/zero")
    let clock = TestClock()
    let deadline = Deadline(clock.now + .milliseconds(5)) {
      clock.advance(by: .milliseconds(1))
      return clock.now
    }
    #expect(throws: HTTPError.timedOut) {
      try Gzip.inflate(bomb, limit: 64 << 20, deadline: deadline)
    }
  }

  @Test func aCorruptOrCutGzipBodyIsAnError() throws {
    let packed = try Self.gzip("printf '%s' 'some text that is long enough to be worth a body'")
    var flipped = packed
    flipped[packed.count / 2] ^= 0xFF
    var badTrailer = packed
    badTrailer[packed.count - 6] ^= 0x01
    let cases: [(String, [UInt8])] = [
      ("not gzip", Array("plain text, not gzip".utf8)),
      ("corrupt", flipped),
      ("a wrong CRC", badTrailer),
      ("cut short", Array(packed.dropLast(10))),
      ("trailing bytes", packed + [1, 2, 3]),
    ]
    for (name, body) in cases {
      #expect("\(name)") {
        try read(Self.answer(body))
      } throws: { error in
        guard case .malformed(let why) = error as? HTTPError else { return false }
        return why.contains("gzip")
      }
    }
    #expect {
      try read(Self.answer(packed, coding: "br"))
    } throws: { "\($0)".contains("content coding 'br'") }
  }
}
