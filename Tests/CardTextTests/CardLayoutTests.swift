import Testing

@testable import CardText

@Suite struct CardLayoutTests {
  @Test func titleBlankLineBody() {
    let layout = CardLayout.layout(title: "Tea", body: "Drink it hot.", width: 8, height: 4)
    #expect(layout == CardLayout(lines: ["Tea", "", "Drink it", "hot."], truncated: false))
  }

  @Test func titleTakesAtMostTwoLines() {
    let title = "A very long title that goes on"
    let layout = CardLayout.layout(title: title, body: "Body.", width: 10, height: 10)
    #expect(layout.lines == ["A very", "long titl…", "", "Body."])
    #expect(layout.truncated)
  }

  @Test func bodyIsCutToTheHeight() {
    let layout = CardLayout.layout(
      title: "日本", body: "one two three four five six", width: 9, height: 4)
    #expect(layout == CardLayout(lines: ["日本", "", "one two", "three…"], truncated: true))
  }

  @Test func noRoomForTheBodyMarksTheTitle() {
    let layout = CardLayout.layout(title: "Title", body: "Body", width: 10, height: 2)
    #expect(layout == CardLayout(lines: ["Title…"], truncated: true))
  }

  @Test func withoutTitle() {
    let layout = CardLayout.layout(title: nil, body: "just a body", width: 6, height: 5)
    #expect(layout == CardLayout(lines: ["just a", "body"], truncated: false))
    let empty = CardLayout.layout(title: "", body: "", width: 6, height: 5)
    #expect(empty == CardLayout(lines: [], truncated: false))
  }

  @Test func wholeCardIsNeverTruncated() {
    let title = "A very long title that goes on and on"
    let body = String(repeating: "word ", count: 500)
    let layout = CardLayout.layout(title: title, body: body, width: 10, height: .max)
    #expect(!layout.truncated)
    #expect(layout.lines.prefix(4) == ["A very", "long title", "that goes", "on and on"])
    #expect(layout.lines.count == 4 + 1 + 250)
  }

  @Test(arguments: Samples.widths)
  func samplesFit(width: Int) {
    for (title, body) in zip(Samples.all, Samples.all.reversed()) {
      for height in [1, 2, 3, 12] {
        let layout = CardLayout.layout(title: title, body: body, width: width, height: height)
        #expect(layout.lines.count <= height)
        #expect(widest(layout.lines) <= width)
      }
    }
  }
}
