import Testing

@testable import HTTP

/// The bytes of a response, given in pieces of the sizes a test chooses.
struct Pieces: ByteSource {
  var bytes: [UInt8]
  var sizes: [Int]

  mutating func read(limit: Int) throws(HTTPError) -> [UInt8] {
    let size = min(sizes.isEmpty ? limit : sizes.removeFirst(), limit, bytes.count)
    defer { bytes.removeFirst(size) }
    return Array(bytes.prefix(size))
  }
}

struct ResponseReaderTests {
  private func read(
    _ text: String, method: String = "GET", sizes: [Int] = [],
    limits: ResponseReader<Pieces>.Limits = .init()
  ) throws -> HTTPResponse {
    var reader = ResponseReader(Pieces(bytes: Array(text.utf8), sizes: sizes), limits: limits)
    return try reader.response(method: method)
  }

  @Test func aContentLengthBodyWhateverTheReadsItArrivesIn() throws {
    let text =
      "HTTP/1.1 200 OK\r\nETag: \"k:2\"\r\nContent-Length: 5\r\nX-Other:  a b \r\n\r\nhello"
    let whole = try read(text)
    #expect(whole.status == 200)
    #expect(whole.header("etag") == "\"k:2\"")
    #expect(whole.header("X-OTHER") == "a b")
    #expect(whole.body == Array("hello".utf8))
    for size in 1...9 {
      #expect(
        try read(text, sizes: Array(repeating: size, count: 200)) == whole, "pieces of \(size)")
    }
  }

  @Test func aChunkedBodyWithExtensionsAndTrailers() throws {
    let text =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "4;name=x\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: t\r\n\r\n"
    for size in [1, 2, 3, 7, 1000] {
      let response = try read(text, sizes: Array(repeating: size, count: 200))
      #expect(String(decoding: response.body, as: UTF8.self) == "Wikipedia in \r\n\r\nchunks.")
    }
  }

  @Test func aBodyThatEndsWithTheConnection() throws {
    #expect(try read("HTTP/1.0 200 OK\r\n\r\nto the end").body == Array("to the end".utf8))
  }

  @Test func interimResponsesAreSkippedAndSomeAnswersHaveNoBody() throws {
    let answer = try read(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
    #expect(answer.status == 201)
    #expect(answer.body == Array("ok".utf8))
    #expect(try read("HTTP/1.1 304 Not Modified\r\nETag: \"a\"\r\n\r\n").body.isEmpty)
    #expect(try read("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", method: "HEAD").body.isEmpty)
  }

  /// The search for a head's end stays right when the buffer is compacted
  /// under it (a stale index once ended such a flood in "the header line ''").
  @Test func aFloodOfInterimResponsesEndsInTheAnswer() throws {
    // As many interim answers as are taken, each long enough that the buffer is compacted.
    let hint =
      "HTTP/1.1 103 Early Hints\r\nLink: <" + String(repeating: "a", count: 4000) + ">\r\n\r\n"
    let text =
      String(repeating: hint, count: 32) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    for size in [999, 16 * 1024, 100_000] {
      let answer = try read(text, sizes: Array(repeating: size, count: 1_000))
      #expect(answer.status == 200 && answer.body == Array("ok".utf8), "pieces of \(size)")
    }
  }

  @Test func aRedirectIsAnAnswerLikeAnyOther() throws {
    let answer = try read(
      "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n")
    #expect(answer.status == 302)
    #expect(answer.header("Location") == "http://127.0.0.1:1/")
  }

  @Test(arguments: [
    ("", "without answering"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 3", "stops inside its head"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort", "stops inside its body"),
    ("HTTP/2 200\r\n\r\n", "status line"),
    ("HTTP/1.1 20 OK\r\n\r\n", "status line"),
    ("HTTP/1.1 600 Odd\r\n\r\n", "status line"),
    ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "header line"),
    ("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", "header line"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "Content-Length"),
    ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n", "Content-Length"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "transfer coding"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", "longer"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "stops inside its body"),
  ])
  func malformedAnswers(text: String, message: String) {
    #expect {
      try read(text)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  /// A body of exactly the limit is read however it is framed, in reads of any size.
  @Test func aBodyOfExactlyTheLimitIsReadWhateverItsFraming() throws {
    var limits = ResponseReader<Pieces>.Limits()
    limits.body = 4
    let framings = [
      "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfour",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nfou\r\n1\r\nr\r\n0\r\n\r\n",
      "HTTP/1.0 200 OK\r\n\r\nfour",
    ]
    for text in framings {
      for size in [1, 2, 3, 1000] {
        let response = try read(text, sizes: Array(repeating: size, count: 200), limits: limits)
        #expect(response.body == Array("four".utf8), "\(text.debugDescription) in reads of \(size)")
      }
    }
  }

  @Test func limitsOnTheHeadAndTheBody() throws {
    var limits = ResponseReader<Pieces>.Limits()
    limits.body = 4
    _ = try read("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfour", limits: limits)
    #expect(throws: HTTPError.tooLarge(limit: 4)) {
      try read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfive!", limits: limits)
    }
    #expect(throws: HTTPError.tooLarge(limit: 4)) {
      try read(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        limits: limits)
    }
    #expect(throws: HTTPError.tooLarge(limit: 4)) {
      try read("HTTP/1.0 200 OK\r\n\r\nfive!", limits: limits)
    }
    limits.head = 64
    #expect {
      try read(
        "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 100) + "\r\n\r\n", limits: limits)
    } throws: { "\($0)".contains("head longer than 64") }
  }
}
