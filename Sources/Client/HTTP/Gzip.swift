import CZlib

/// gzip content coding (RFC 9110, 8.4.1.3), inflated as a stream within a byte budget: a body
/// that would inflate past the budget is refused once it gets there, never inflated whole. A
/// body of several members, one after the other, is their texts joined (RFC 1952, 2.2).
enum Gzip {
  /// The bytes `body` inflates to, at most `limit` of them: `.tooLarge` past it, `.malformed`
  /// for what is not a series of whole gzip members; `.timedOut` once `deadline` has passed.
  static func inflate(_ body: [UInt8], limit: Int, deadline: Deadline = .none) throws(HTTPError)
    -> [UInt8]
  {
    guard !body.isEmpty else { throw .malformed("an empty gzip body") }
    guard var stream = ctfo_inflate_new() else { throw .malformed("no memory to inflate") }
    defer { ctfo_inflate_free(stream) }
    var output: [UInt8] = []
    output.reserveCapacity(min(limit, body.count * 4))
    var piece = [UInt8](repeating: 0, count: 64 * 1024)
    var error = [CChar](repeating: 0, count: 256)
    var offset = 0
    while true {
      try deadline.check()
      var consumed = 0
      var produced = 0
      let status = body.withUnsafeBytes { input in
        piece.withUnsafeMutableBytes { out in
          ctfo_inflate_step(
            stream, input.baseAddress! + offset, input.count - offset, &consumed,
            out.baseAddress!, out.count, &produced, &error, error.count)
        }
      }
      offset += consumed
      if status < 0 {
        let why = String(
          decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw .malformed("a corrupt gzip body (\(why))")
      }
      guard produced <= limit - output.count else { throw .tooLarge(limit: limit) }
      output += piece[0..<produced]
      if status == 1 {
        if offset == body.count { return output }
        // Another member follows: a fresh stream for it (its own header, CRC and length).
        guard let next = ctfo_inflate_new() else { throw .malformed("no memory to inflate") }
        ctfo_inflate_free(stream)
        stream = next
        continue
      }
      if consumed == 0 && produced == 0 { throw .malformed("a gzip body that stops short") }
    }
  }
}
