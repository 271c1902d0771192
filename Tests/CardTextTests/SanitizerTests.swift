import Testing

@testable import CardText

@Suite struct SanitizerTests {
  @Test(
    arguments: [
      ("plain text\twith tab\nand newline", "plain text\twith tab\nand newline"),
      ("bell\u{7}esc\u{1B}[2Jdel\u{7F}cr\r\n", "bellesc[2Jdelcr\n"),
      ("c1\u{85}\u{9B}31m", "c131m"),
      ("bidi \u{202E}evil\u{202C} \u{2067}x\u{2069} \u{200F}", "bidi evil x "),
      ("zero\u{200B}width\u{FEFF}bom\u{2060}joiner\u{AD}shy", "zerowidthbomjoinershy"),
      ("tags 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "tags 🏴"),
      ("hangul\u{3164}filler", "hangulfiller"),
      ("line\u{2028}sep", "linesep"),
    ] as [(String, String)])
  func removes(_ input: String, _ expected: String) {
    #expect(Sanitizer.sanitize(input) == expected)
  }

  @Test(
    arguments: [
      ("👨\u{200D}👩\u{200D}👧", "👨"),
      ("❤\u{FE0F}", "❤"),
      ("👍🏽", "👍"),
      ("✌🏽", "✌"),
      ("1\u{FE0F}\u{20E3}", "1"),
      ("🇫", "\u{FFFD}"),
      ("🇫🇷", "🇫🇷"),
      ("🫨 new in Unicode 15", "\u{FFFD} new in Unicode 15"),
      ("क्षि", "क्ष"),
      ("e\u{301}", "e\u{301}"),
      ("👍\u{FE0F}", "👍\u{FE0F}"),
      ("日本語", "日本語"),
    ] as [(String, String)])
  func replacesWhereWidthsDisagree(_ input: String, _ expected: String) {
    #expect(Sanitizer.sanitize(input) == expected)
  }

  /// A ZWJ joins the next glyph in the terminal (tmux draws "h\u{200D}│" in one cell) whatever
  /// cluster it ends: it survives nowhere, and an emoji sequence keeps its first emoji.
  @Test(
    arguments: [
      ("zero width\u{200D}", "zero width"),
      ("h\u{200D}│", "h│"),
      ("a\u{200D}\u{301}b", "a\u{301}b"),
      ("क्\u{200D}ष", "क्ष"),
      ("😀\u{200D}日", "😀日"),
      ("\u{200D}│", "│"),
      ("x\u{200C}│", "x\u{200C}│"),
    ] as [(String, String)])
  func removesAJoinerOutsideAnEmojiSequence(_ input: String, _ expected: String) {
    let clean = Sanitizer.sanitize(input)
    #expect(clean == expected)
    let scalars = Array((clean + "│").unicodeScalars)
    #expect(ClusterWidth.terminal(scalars) == DisplayWidth.of(clean) + 1)
  }

  @Test func removesNoncharacters() {
    let noncharacters = [0xFFFE, 0xFDD0, 0x10FFFF, 0x1FFFF].map { Unicode.Scalar($0)! }
    let text = "non" + String(String.UnicodeScalarView(noncharacters)) + "char"
    #expect(Sanitizer.sanitize(text) == "nonchar")
  }

  @Test func capsCombiningMarks() {
    let marks = "\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}"
    let sanitized = Sanitizer.sanitize("Z\(marks)algo")
    #expect(sanitized == "Z\u{300}\u{301}\u{302}\u{303}algo")
    #expect(sanitized.first?.unicodeScalars.count == 1 + Sanitizer.maximumMarksPerCluster)
  }

  @Test func invalidUTF8BecomesReplacementCharacter() {
    let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xED, 0xA0, 0x80, 0x63, 0xE6, 0x97]
    let sanitized = Sanitizer.sanitize(utf8: bytes)
    #expect(sanitized.hasPrefix("a\u{FFFD}b"))
    #expect(sanitized.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" || $0.isASCII })
    #expect(sanitized.contains("c"))
  }

  @Test func leavesSamplesAlone() {
    for sample in Samples.all { #expect(Sanitizer.sanitize(sample) == sample) }
  }

  @Test func isIdempotentOnSequences() {
    let text = "x 👨\u{200D}👩\u{200D}👧 क्षि \u{301}🇫🇷🇫 ❤\u{FE0F}\u{1B}"
    let once = Sanitizer.sanitize(text)
    #expect(Sanitizer.sanitize(once) == once)
  }
}
