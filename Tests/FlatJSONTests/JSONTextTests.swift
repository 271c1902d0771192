import FlatJSON
import Testing

/// JSON string literals written by hand, byte for byte.
@Suite struct JSONTextTests {
  @Test func quotesBackslashesAndControlsAreEscaped() {
    #expect(JSONText.quoted("plain ✓") == "\"plain ✓\"")
    #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(JSONText.quoted("\n\t\r") == #""\n\t\r""#)
    #expect(JSONText.quoted("\u{1B}[0m\u{7F}\u{0}") == #""\u001b[0m\u007f\u0000""#)
  }

  @Test func nilIsNullAndTextIsAppended() {
    var buffer = Array("[".utf8)
    JSONText.append(nil, to: &buffer)
    buffer.append(UInt8(ascii: ","))
    JSONText.append("x", to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == #"[null,"x""#)
  }
}
