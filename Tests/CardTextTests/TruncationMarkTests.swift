import Testing

@testable import CardText

@Suite struct TruncationMarkTests {
  @Test func wrapEndsCutTextWithTheMarkAskedFor() {
    let text = "the quick brown fox jumps"
    #expect(WrappedText.wrap(text, width: 9, maxLines: 2).lines == ["the quick", "brown fo…"])
    let ascii = WrappedText.wrap(text, width: 9, maxLines: 2, mark: .ascii)
    #expect(ascii == WrappedText(lines: ["the quick", "brown..."], truncated: true))
    let cjk = WrappedText.wrap("日本語の文章", width: 7, maxLines: 1, mark: .ascii)
    #expect(cjk.lines == ["日本..."])
  }

  @Test func anASCIIMarkWiderThanTheLineIsCut() {
    #expect(WrappedText.wrap("abc def", width: 2, maxLines: 1, mark: .ascii).lines == [".."])
    #expect(WrappedText.wrap("abc def", width: 1, maxLines: 1, mark: .ascii).lines == ["."])
  }

  @Test func layoutPassesTheMarkOn() {
    let title = CardLayout.layout(title: "Title", body: "Body", width: 10, height: 2, mark: .ascii)
    #expect(title == CardLayout(lines: ["Title..."], truncated: true))
    let body = CardLayout.layout(
      title: "日本", body: "one two three four five six", width: 9, height: 4, mark: .ascii)
    #expect(body == CardLayout(lines: ["日本", "", "one two", "three..."], truncated: true))
  }

  @Test(arguments: [TruncationMark.ellipsis, .ascii])
  func everyLineFitsWithEitherMark(mark: TruncationMark) {
    for width in Samples.widths {
      for (title, body) in zip(Samples.all, Samples.all.reversed()) {
        for height in [1, 2, 3, 12] {
          let layout = CardLayout.layout(
            title: title, body: body, width: width, height: height, mark: mark)
          #expect(widest(layout.lines) <= width)
          let marked = layout.lines.contains { $0.hasSuffix(mark.text.prefix(width)) }
          #expect(!layout.truncated || marked)
        }
      }
    }
  }

  @Test(
    arguments: [
      ([:], .ellipsis),
      (["CTFO_ASCII": "1"], .ascii),
      (["CTFO_ASCII": "0", "LANG": "ja_JP.UTF-8"], .ellipsis),
      (["LANG": "ja_JP.UTF-8"], .ascii),
      (["LANG": "zh_CN.UTF-8"], .ascii),
      (["LANG": "ko_KR.UTF-8"], .ascii),
      (["LANG": "en_US.UTF-8"], .ellipsis),
      (["LANG": "jv_ID.UTF-8"], .ellipsis),
      (["LANG": "C.UTF-8", "LC_CTYPE": "zh_TW.UTF-8"], .ascii),
      (["LC_ALL": "en_GB.UTF-8", "LC_CTYPE": "ja_JP.UTF-8"], .ellipsis),
      (["LC_ALL": "", "LC_CTYPE": "ko_KR.UTF-8", "LANG": "C"], .ascii),
      (["LC_ALL": "ja", "LANG": "en_US.UTF-8"], .ascii),
    ] as [([String: String], TruncationMark)])
  func markDecidedFromTheEnvironment(_ environment: [String: String], _ mark: TruncationMark) {
    #expect(TruncationMark(environment: environment) == mark)
    // `ctfo` hands it only these variables.
    let listed = environment.filter { TruncationMark.variables.contains($0.key) }
    #expect(TruncationMark(environment: listed) == mark)
  }
}
