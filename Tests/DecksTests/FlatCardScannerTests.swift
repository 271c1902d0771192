import Testing

@testable import Decks

@Suite struct FlatCardScannerTests {
  static let common = [
    #"{"id": "a", "type": "fact", "body": "plain"}"#,
    #"  {"id":"a","type":"fact","body":"tight","title":"T","source":"S","url":"U","reveal":"R"}  "#,
    #"{"id": "a", "type": "fact", "body": "esc \" \\ \/ \n \t \r \b \f end"}"#,
    "{\"id\": \"a\", \"type\": \"fact\", \"body\": \"日本語 👍🏽 e\u{301}\", \"title\": null}",
    #"{"extra": "ignored", "id": "a", "type": "fact", "body": "x", "more": null}"#,
    #"{ "id" : "a" , "type" : "fact" , "body" : "" }"#,
  ]

  static let unusual = [
    #"{"id": "a", "type": "fact", "body": "\u00e9 \ud83d\ude00"}"#,
    #"{"id": "a", "type": "fact", "body": "x", "n": 3}"#,
    #"{"id": "a", "type": "fact", "body": "x", "o": {"k": "v"}}"#,
    #"{"id": "a", "type": "fact", "body": "x", "t": true}"#,
    #"{"id": "a", "type": "fact", "body": "x"} trailing"#,
    #"{"id": "a", "type": "fact", "body": "x",}"#,
    #"{"id": "a", "type": "fact", "body": "bad \q escape"}"#,
    "{\"id\": \"a\", \"type\": \"fact\", \"body\": \"raw \t tab\"}",
    #"{"id": "a", "type": "fact", "body": "x", "id": "b"}"#,
    #"{"id": "a", "type": "fact", "body": null}"#,
    #"{"id": "a", "type": "fact"}"#,
    #"{"id": "a", "type": "fact", "body": "unterminated}"#,
    #"{"id": "a", "type": "fact", "body": "x", "title": nul}"#,
    #"{}"#,
    #"["id"]"#,
    #"{"deck": "d", "types": {}}"#,
  ]

  private func both(_ line: String) -> (fast: DeckLine?, decoded: DeckLine) {
    Array(line.utf8).withUnsafeBytes { bytes in
      (FlatCardScanner.card(bytes).map(DeckLine.card), DeckParser().decode(bytes))
    }
  }

  @Test(arguments: common)
  func fastPathTakesCommonLinesAndAgreesWithTheDecoder(_ line: String) {
    let (fast, decoded) = both(line)
    #expect(fast != nil)
    #expect(fast == decoded)
  }

  @Test(arguments: unusual)
  func anythingElseGoesToTheDecoderOrAgreesWithIt(_ line: String) {
    let (fast, decoded) = both(line)
    #expect(fast == nil || fast == decoded)
    // And the parser, fast path first, answers what the decoder does.
    var parser = DeckParser()
    #expect(Array(line.utf8).withUnsafeBytes { parser.parse($0) } == decoded)
  }

  @Test func invalidUTF8IsRepairedTheSameWay() {
    let bytes = Array(#"{"id": "a", "type": "fact", "body": "caf"#.utf8) + [0xE9, 0x22, 0x7D]
    let (fast, decoded) = bytes.withUnsafeBytes {
      (FlatCardScanner.card($0).map(DeckLine.card), DeckParser().decode($0))
    }
    #expect(fast == decoded)
    #expect(fast == .card(.init(id: "a", type: "fact", body: "caf\u{FFFD}")))
  }
}
