import Testing

@testable import CardText

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("日", 2), ("한", 2), ("e\u{301}", 1), ("👍", 2), ("🇫🇷", 2), ("❤", 1),
    ("\u{301}", 0), ("…", 1), ("\u{FFFD}", 1), ("ｱ", 1), ("Ａ", 2), ("\u{3000}", 2),
  ] as [(Character, Int)])
  func cluster(_ cluster: Character, width: Int) {
    #expect(DisplayWidth.of(cluster) == width)
  }

  @Test func text() {
    #expect(DisplayWidth.of("") == 0)
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("日本語 ok") == 9)
    #expect(DisplayWidth.of("line\nbreak\t") == 9)
  }

  @Test func tablesCarryTheirVersions() {
    #expect(UnicodeTables.unicodeVersion == "15.0.0")
    #expect(UnicodeTables.cursesUnicodeVersion == "14.0.0")
  }

  @Test func scalarProperties() {
    #expect(ScalarProperties(0x41).terminalWidth == 1)
    #expect(ScalarProperties(0x1F44D).terminalWidth == 2)
    #expect(ScalarProperties(0x1FAE0).cursesWidth == 2)  // Unicode 14: glibc knows it
    #expect(ScalarProperties(0x1FAE8).cursesWidth == nil)  // Unicode 15: glibc 2.36 does not
    #expect(ScalarProperties(0x202E).isRemoved)
    #expect(ScalarProperties(0x0301).isMark)
    #expect(ScalarProperties(0x093E).isSpacingMark)
    #expect(ScalarProperties(0x0915).isConsonant)
    #expect(ScalarProperties(0x2764).widensWithVS16)
    #expect(ScalarProperties(0x1F468).isPictographic)
    #expect(ScalarProperties(0x200D).extendsCluster)
    #expect(!ScalarProperties(0x200D).isRemoved)
  }

  @Test(arguments: [
    ("👨\u{200D}👩\u{200D}👧", 2, 6), ("❤\u{FE0F}", 2, 1), ("👍🏽", 2, 4), ("🇫", 2, 1),
    ("🇫🇷", 2, 2), ("e\u{301}", 1, 1), ("क्षि", 2, 3), ("का", 2, 2), ("1\u{FE0F}\u{20E3}", 2, 1),
  ] as [(String, Int, Int)])
  func clusterWidths(_ cluster: String, terminal: Int, curses: Int) {
    let scalars = Array(cluster.unicodeScalars)
    #expect(ClusterWidth.terminal(scalars) == terminal)
    #expect(ClusterWidth.curses(scalars) == curses)
  }
}
