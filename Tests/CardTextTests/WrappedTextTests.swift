import Testing

@testable import CardText

@Suite struct WrappedTextTests {
  @Test func wrapsGreedilyAtSpaces() {
    let wrapped = WrappedText.wrap("the quick brown fox jumps", width: 10, maxLines: 10)
    #expect(wrapped == WrappedText(lines: ["the quick", "brown fox", "jumps"], truncated: false))
  }

  @Test func truncatesWithEllipsisThatFits() {
    let wrapped = WrappedText.wrap("the quick brown fox jumps", width: 9, maxLines: 2)
    #expect(wrapped == WrappedText(lines: ["the quick", "brown fo…"], truncated: true))
    let exact = WrappedText.wrap("abcde fghij klm", width: 5, maxLines: 2)
    #expect(exact == WrappedText(lines: ["abcde", "fghi…"], truncated: true))
  }

  @Test func breaksOnlyWordsWiderThanTheLine() {
    let wrapped = WrappedText.wrap("a abcdefghijkl b", width: 5, maxLines: 10)
    #expect(wrapped.lines == ["a abc", "defgh", "ijkl", "b"])
  }

  @Test func neverSplitsAClusterNorStraddlesTheEdge() {
    let wrapped = WrappedText.wrap("ab日本語e\u{301}e\u{301}", width: 3, maxLines: 10)
    #expect(wrapped.lines == ["ab", "日", "本", "語e\u{301}", "e\u{301}"])
    let single = WrappedText.wrap("日本", width: 1, maxLines: 10)
    #expect(single.lines == ["\u{FFFD}", "\u{FFFD}"])
  }

  @Test func paragraphsAndTabs() {
    let wrapped = WrappedText.wrap("one\n\n\ttwo three\n", width: 12, maxLines: 10)
    #expect(wrapped.lines == ["one", "", "        two", "three"])
    let inside = WrappedText.wrap("a\tb", width: 20, maxLines: 1)
    #expect(inside.lines == ["a       b"])
  }

  @Test func emptyTextHasNoLines() {
    #expect(WrappedText.wrap("", width: 10, maxLines: 3) == WrappedText(lines: [], truncated: false))
    #expect(WrappedText.wrap(" \n\t", width: 10, maxLines: 3).lines == [])
    #expect(WrappedText.wrap("abc", width: 10, maxLines: 0) == WrappedText(lines: [], truncated: true))
    #expect(WrappedText.wrap("abc", width: 0, maxLines: 5) == WrappedText(lines: [], truncated: true))
  }

  @Test func spaceBeforeACombiningMarkStaysWithIt() {
    let wrapped = WrappedText.wrap("abc \u{301}def", width: 4, maxLines: 10)
    #expect(wrapped.lines.allSatisfy { $0.unicodeScalars.first != "\u{301}" })
  }

  @Test(arguments: Samples.widths)
  func everySampleFitsItsWidth(width: Int) {
    for sample in Samples.all {
      for height in [1, 3, Int.max] {
        let wrapped = WrappedText.wrap(sample, width: width, maxLines: height)
        #expect(widest(wrapped.lines) <= width, "\(sample) at \(width)")
        #expect(wrapped.lines.count <= height)
        #expect(wrapped.truncated == (wrapped.lines.last?.hasSuffix("…") == true && height != .max))
        if !wrapped.truncated && width > 1 { #expect(nonBlank(wrapped.lines.joined()) == nonBlank(sample)) }
      }
    }
  }

  @Test(arguments: Samples.widths)
  func wrappingIsGreedy(width: Int) {
    for sample in Samples.all where !sample.contains("\t") {
      for paragraph in sample.split(separator: "\n") {
        let words = paragraph.split(separator: " ")
        guard words.allSatisfy({ DisplayWidth.of($0) <= width }) else { continue }
        let lines = WrappedText.wrap(String(paragraph), width: width, maxLines: .max).lines
        #expect(lines.joined(separator: " ") == words.joined(separator: " "))
        for (line, next) in zip(lines, lines.dropFirst()) {
          let nextWord = next.split(separator: " ").first ?? ""
          #expect(DisplayWidth.of(line) + 1 + DisplayWidth.of(nextWord) > width, "\(line)|\(next)")
        }
      }
    }
  }

  @Test(arguments: Samples.widths)
  func aMegabyteWord(width: Int) {
    let word = String(repeating: "abcdefgh", count: 131_072)
    let cut = WrappedText.wrap(word, width: width, maxLines: 12)
    #expect(cut.lines.count == 12)
    #expect(cut.truncated)
    #expect(widest(cut.lines) <= width)
    #expect(cut.lines.dropLast().allSatisfy { DisplayWidth.of($0) == width })
  }

  @Test func aMegabyteWordWhole() {
    let word = String(repeating: "日本語e\u{301}", count: 87_382)
    let whole = WrappedText.wrap(word, width: 7, maxLines: .max)
    #expect(!whole.truncated)
    #expect(whole.lines.joined() == word)
    #expect(widest(whole.lines) == 7)
  }

  private func nonBlank(_ text: some StringProtocol) -> String {
    String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" && $0 != "\n" }.map(Character.init))
  }
}
