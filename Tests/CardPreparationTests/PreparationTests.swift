import CardPreparation
import CardText
import FeedCore
import Testing

/// A fetched card made ready to show: sanitised once, then laid out for a text area.
@Suite struct PreparationTests {
  @Test func sanitisingMakesEveryTextFieldSafeAndKeepsTheKeys() {
    let card = Card(
      id: "a\u{1B}1", type: "fact\u{7}", title: "Red\u{1B}[31m", body: "one\u{7}\ntwo\u{202E}",
      source: "Some\none", url: "https://example.org/\u{0}x", reveal: "\u{1B}]0;t\u{7}yes",
      why: "often\tthis")
    let safe = Preparation.sanitized(card)
    #expect(safe.id == card.id && safe.type == card.type, "what identifies a card is untouched")
    #expect(safe.title == "Red[31m")
    #expect(safe.body == "one\ntwo")
    #expect(safe.source == "Some one", "one line: the line feed becomes a space")
    #expect(safe.url == "https://example.org/x")
    #expect(safe.reveal == "]0;tyes")
    #expect(safe.why == "often this")
    #expect(Preparation.sanitized(safe) == safe)
  }

  @Test func absentFieldsStayAbsent() {
    let card = Card(id: "b", type: "fact", body: "Just a body.")
    #expect(Preparation.sanitized(card) == card)
  }

  @Test func aCardIsLaidOutForTheTextArea() {
    let card = Card(id: "t", type: "fact", title: "Tea", body: "Drink it hot.")
    let prepared = Preparation.laidOut(card, for: TextArea(width: 8, height: 4))
    #expect(prepared.card == card)
    #expect(
      prepared.layout == CardLayout(lines: ["Tea", "", "Drink it", "hot."], truncated: false))
  }

  @Test func textCutToFitEndsWithTheMarkAsked() {
    let card = Card(id: "t", type: "fact", body: "one two three four five six seven eight")
    let area = TextArea(width: 10, height: 2)
    let cut = Preparation.laidOut(card, for: area)
    #expect(cut.layout.truncated)
    #expect(cut.layout.lines.count == 2)
    #expect(cut.layout.lines.last?.hasSuffix("…") == true)
    let ascii = Preparation.laidOut(card, for: area, mark: .ascii)
    #expect(ascii.layout.lines.last?.hasSuffix("...") == true)
    #expect(ascii.layout.lines.allSatisfy { $0.count <= area.width })
  }

  @Test func aWiderAreaLaysTheSameCardOutAgain() {
    let card = Card(id: "t", type: "fact", body: "Drink it hot.")
    let narrow = Preparation.laidOut(card, for: TextArea(width: 8, height: 4))
    let wide = Preparation.laidOut(card, for: TextArea(width: 40, height: 4))
    #expect(narrow.layout.lines == ["Drink it", "hot."])
    #expect(wide.layout.lines == ["Drink it hot."])
    #expect(narrow.card == wide.card)
  }
}
