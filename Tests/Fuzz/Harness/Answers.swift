@testable import HTTP

/// The HTTP response reader on a server's answer: the first byte sets the size of the pieces
/// the rest arrives in. Checks that reading ends, that a body never passes its limit, and that
/// an answer read whole has a valid status, header names and the length it declared.
enum AnswerHarness {
  struct Pieces: ByteSource {
    var bytes: ArraySlice<UInt8>
    let size: Int

    mutating func read(limit: Int) throws(HTTPError) -> [UInt8] {
      let piece = bytes.prefix(min(size, limit))
      bytes = bytes.dropFirst(piece.count)
      return Array(piece)
    }
  }

  static let limits = ResponseReader<Pieces>.Limits(head: 4096, body: 16 * 1024)

  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first else { return }
    let source = Pieces(bytes: Array(bytes.dropFirst())[...], size: Int(first % 64) + 1)
    var reader = ResponseReader(source, limits: limits)
    guard let answer = try? reader.response(method: first & 0x80 == 0 ? "GET" : "HEAD") else {
      return
    }
    precondition(
      (200...599).contains(answer.status) || answer.status == 101, "status \(answer.status)")
    precondition(answer.body.count <= limits.body, "a body of \(answer.body.count) bytes")
    for (name, _) in answer.headers {
      precondition(!name.isEmpty && !name.contains(where: \.isWhitespace), "header \(shown(name))")
    }
    let chunked = answer.header("Transfer-Encoding") != nil
    if let length = answer.header("Content-Length").flatMap({ Int($0) }), !chunked,
      !answer.body.isEmpty
    {
      precondition(answer.body.count == length, "\(answer.body.count) bytes for \(length)")
    }
  }
}
