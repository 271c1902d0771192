import FoundationEssentials
import TestFixtures
import Testing

@testable import CTFOWire

/// A pull's cards are read by hand when they are flat objects (`Wire.Card.flat`, over
/// `FlatJSONObject`): the common shapes take that path and give what `JSONDecoder` gives; any
/// other text is left to `JSONDecoder`, or read the same.
@Suite struct FlatCardTests {
  static let common = [
    #"{"id":"c1","type":"fact","body":"plain"}"#,
    #" { "id" : "c1" , "type" : "fact" , "title" : null , "body" : "" } "#,
    #"{"id":"c1","type":"fact","title":"T","body":"b","bodyOmitted":false,"source":"S","url":"https:\/\/example.org\/a","reveal":"R","publishedAt":1700000000000}"#,
    #"{"id":"c1","type":"fact","body":null,"bodyOmitted":true,"publishedAt":0}"#,
    #"{"id":"c1","type":"fact","body":"esc \" \\ \/ \n \t \r \b \f end","publishedAt":-42}"#,
    "{\"id\":\"c1\",\"type\":\"fact\",\"body\":\"日本語 👍🏽 e\u{301}\",\"publishedAt\":999999999999999999}",
    #"{"extra":"ignored","id":"c1","type":"fact","more":null}"#,
  ]

  static let unusual: [[UInt8]] =
    [
      #"{"id":"c1","type":"fact","body":"\u00e9 \ud83d\ude00"}"#,
      #"{"id":"c1","type":"fact","body":"\ud83d alone"}"#,
      #"{"id":"c1","type":"fact","publishedAt":1.5}"#,
      #"{"id":"c1","type":"fact","publishedAt":1e3}"#,
      #"{"id":"c1","type":"fact","publishedAt":-0}"#,
      #"{"id":"c1","type":"fact","publishedAt":01}"#,
      #"{"id":"c1","type":"fact","publishedAt":-}"#,
      #"{"id":"c1","type":"fact","publishedAt":9223372036854775807}"#,
      #"{"id":"c1","type":"fact","publishedAt":99999999999999999999}"#,
      #"{"id":"c1","type":"fact","publishedAt":"5"}"#,
      #"{"id":"c1","type":"fact","bodyOmitted":1}"#,
      #"{"id":"c1","type":"fact","bodyOmitted":tru}"#,
      #"{"id":"c1","type":"fact","title":5}"#,
      #"{"id":"c1","type":"fact","title":true}"#,
      #"{"id":"c1","type":"fact","extra":5}"#,
      #"{"id":"c1","type":"fact","extra":{"k":"v"}}"#,
      #"{"id":"c1","type":"fact","id":"c2"}"#,
      #"{"id":"c1"}"#,
      #"{"id":null,"type":"fact"}"#,
      #"{"i\u0064":"c1","type":"fact"}"#,
      #"{"id":"c1","type":"fact"} x"#,
      #"{"id":"c1","type":"fact",}"#,
      #"{"id":"c1","type":"fact","body":"bad \q"}"#,
      "{\"id\":\"c1\",\"type\":\"fact\",\"body\":\"raw \t tab\"}",
      #"{"id":"c1","type":"fact","body":"unterminated}"#,
      #"["c1"]"#,
      #"{}"#,
      "",
    ].map { Array($0.utf8) } + [
      Array(#"{"id":"c1","type":"fact","body":"caf"#.utf8) + [0xE9, 0x22, 0x7D],
      Array(#"{"id":"c1","type":"fact","b\#u{E9}":"x"}"#.utf8),
    ]

  private func both(_ bytes: [UInt8]) -> (fast: Wire.Card?, decoded: Wire.Card?) {
    let fast = bytes.withUnsafeBytes { Wire.Card.flat($0) }
    return (fast, try? JSONDecoder().decode(Wire.Card.self, from: Data(bytes)))
  }

  @Test(arguments: common)
  func commonCardsAreReadByHandAsTheDecoderReadsThem(_ text: String) {
    let (fast, decoded) = both(Array(text.utf8))
    #expect(fast != nil)
    #expect(fast == decoded)
  }

  @Test(arguments: unusual)
  func anythingElseIsLeftToTheDecoderOrReadTheSame(_ bytes: [UInt8]) {
    let (fast, decoded) = both(bytes)
    #expect(fast == nil || fast == decoded)
  }

  /// What the server's encoder writes for a card is all read by hand.
  @Test func cardsAsJSONEncoderWritesThemAreReadByHand() throws {
    let pull = WirePulls.pull(cards: 100)
    for card in pull.cards {
      let bytes = Array(try JSONEncoder().encode(card))
      let (fast, decoded) = both(bytes)
      #expect(fast != nil && fast == card && decoded == card)
    }
  }
}
