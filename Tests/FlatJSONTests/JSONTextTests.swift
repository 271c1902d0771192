import FlatJSON
import FoundationEssentials
import Testing

/// JSON string literals written by hand, byte for byte.
@Suite struct JSONTextTests {
  @Test func quotesBackslashesAndControlsAreEscaped() {
    #expect(JSONText.quoted("plain ✓") == "\"plain ✓\"")
    #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(JSONText.quoted("\n\t\r") == #""\n\t\r""#)
    #expect(JSONText.quoted("\u{1B}[0m\u{7F}\u{0}") == #""\u001b[0m\u007f\u0000""#)
  }

  /// C1 controls (`C2 9D`, `C2 9B`), the bidi controls (`E2 80 AE`) and the line and
  /// paragraph separators are escaped too: JSON read in a terminal carries none of them raw.
  @Test func c1AndBidiControlsAreEscaped() {
    #expect(
      JSONText.quoted("\u{9D}0;x\u{9C}\u{9B}2J\u{80}\u{9F}")
        == #""\u009d0;x\u009c\u009b2J\u0080\u009f""#)
    #expect(
      JSONText.quoted(
        "a\u{202E}b\u{202A}\u{200E}\u{200F}\u{61C}\u{2066}\u{2069}\u{2028}\u{2029}")
        == #""a\u202eb\u202a\u200e\u200f\u061c\u2066\u2069\u2028\u2029""#)
    // Their neighbours stay as they are.
    let kept =
      "\u{A0}\u{A9}é\u{600}\u{61B}\u{200D}\u{2010}\u{2027}\u{202F}\u{2065}\u{206A}€✓👍🏽"
    #expect(JSONText.quoted(kept) == "\"" + kept + "\"")
  }

  /// Every text escaped reads back as itself, with no raw control or bidi control left.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func anyTextRoundTrips(seed: UInt64) throws {
    var state = seed
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let pool: [Unicode.Scalar] = [
      "a", "\"", "\\", "\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{A0}", "\u{61C}",
      "\u{200E}", "\u{2028}", "\u{202E}", "\u{2069}", "\u{20AC}", "\u{1F600}", "\u{FFFD}",
      "\u{E000}",
    ]
    for _ in 0..<200 {
      var text = String.UnicodeScalarView()
      for _ in 0..<Int(next() % 12) { text.append(pool[Int(next() % UInt64(pool.count))]) }
      let quoted = JSONText.quoted(String(text))
      let raw = quoted.unicodeScalars.filter {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
          || [0x61C, 0x200E, 0x2028, 0x202E, 0x2069].contains($0.value)
      }
      #expect(raw.isEmpty, "\(quoted)")
      let decoded = try JSONDecoder().decode([String].self, from: Data("[\(quoted)]".utf8))
      #expect(decoded == [String(text)], "\(quoted)")
    }
  }

  @Test func nilIsNullAndTextIsAppended() {
    var buffer = Array("[".utf8)
    JSONText.append(nil, to: &buffer)
    buffer.append(UInt8(ascii: ","))
    JSONText.append("x", to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == #"[null,"x""#)
  }
}
