import App
import CNcursesw
import Testing

@testable import Terminal

/// Mouse reports among the keys, as `wget_wch` hands them over.
@Suite struct MouseReportsTests {
  /// The events of typed text, as the session decodes each character.
  private func events(_ text: String) -> [InputEvent] {
    text.unicodeScalars.compactMap { KeyDecoder.character($0.value).event }
  }

  private func mouse(_ kind: MouseEvent.Kind, _ column: Int, _ row: Int) -> InputEvent {
    .mouse(MouseEvent(kind, column: column, row: row))
  }

  @Test(arguments: [
    ("\u{1B}[<0;1;1M", MouseEvent(.press, column: 0, row: 0)),
    ("\u{1B}[<0;80;24M", MouseEvent(.press, column: 79, row: 23)),
    ("\u{1B}[<32;41;12M", MouseEvent(.drag, column: 40, row: 11)),
    ("\u{1B}[<0;41;12m", MouseEvent(.release, column: 40, row: 11)),
    ("\u{1B}[<64;5;6M", MouseEvent(.wheelUp, column: 4, row: 5)),
    ("\u{1B}[<65;5;6M", MouseEvent(.wheelDown, column: 4, row: 5)),
    // Shift (4), Meta (8) and Control (16) change nothing.
    ("\u{1B}[<4;2;3M", MouseEvent(.press, column: 1, row: 2)),
    ("\u{1B}[<48;2;3M", MouseEvent(.drag, column: 1, row: 2)),
    ("\u{1B}[<0;999999;999999m", MouseEvent(.release, column: 999_998, row: 999_998)),
    // 0 is before the first column and row (1): no place is left of or above the screen.
    ("\u{1B}[<32;0;0M", MouseEvent(.drag, column: 0, row: 0)),
    ("\u{1B}[M@  ", MouseEvent(.drag, column: 0, row: 0)),
    // X10, as GNU screen sends it: button, column and row each plus 32.
    ("\u{1B}[M !!", MouseEvent(.press, column: 0, row: 0)),
    ("\u{1B}[M@+%", MouseEvent(.drag, column: 10, row: 4)),
    ("\u{1B}[M#+%", MouseEvent(.release, column: 10, row: 4)),
    ("\u{1B}[M`+%", MouseEvent(.wheelUp, column: 10, row: 4)),
  ])
  func aReportIsItsEvent(text: String, event: MouseEvent) {
    #expect(KeySequences.folded(events(text)) == [.mouse(event)])
  }

  @Test(arguments: [
    "\u{1B}[<1;5;5M", "\u{1B}[<2;5;5M", "\u{1B}[<2;5;5m", "\u{1B}[<35;5;5M", "\u{1B}[<66;5;5M",
    "\u{1B}[M\"!!",
  ])
  func otherButtonsAndBareMovesAreDroppedWhole(text: String) {
    #expect(KeySequences.folded(events("l" + text + "q")) == events("lq"))
  }

  @Test(arguments: [
    "\u{1B}[<0;5M", "\u{1B}[<0;5;5;5M", "\u{1B}[<;5;5M", "\u{1B}[<0;5;5x", "\u{1B}[<0;1234567;5M",
    "\u{1B}[<0;5;5\u{1B}",
  ])
  func whatNoTerminalSendsIsDroppedThroughItsBadCharacter(text: String) {
    let folded = KeySequences.folded(events(text + "q"))
    #expect(!folded.contains { if case .mouse = $0 { true } else { false } })
    #expect(folded.last == .key(.character("q")) || text.hasSuffix("\u{1B}"))
    #expect(!folded.contains(.key(.character("<"))), "no part of it acts as a key")
  }

  @Test func reportsAndKeysStayInOrder() {
    #expect(
      KeySequences.folded(events("l\u{1B}[<0;3;4M\u{1B}[C\u{1B}[<0;3;4mq")) == [
        .key(.character("l")), mouse(.press, 2, 3), .key(.right), mouse(.release, 2, 3),
        .key(.character("q")),
      ])
  }

  @Test func keyMouseIsTheStartOfAReport() {
    #expect(KeyDecoder.decode(UInt32(KEY_MOUSE), isKeyCode: true) == .mouseReport)
  }

  @Test(arguments: ["\u{1B}[<", "\u{1B}[<0", "\u{1B}[<0;12;", "\u{1B}[<0;12;4", "\u{1B}[M", "\u{1B}[M !"])
  func aReportCutShortWaitsForItsRestAndIsDroppedWithoutIt(text: String) {
    let cut = events("l" + text)
    #expect(MouseReports.mayContinue(cut))
    #expect(MouseReports.partialReportStart(cut) == 1)
    #expect(KeySequences.folded(cut) == events("l"))
  }

  @Test func aCompleteReportOrEscapeAloneWaitsForNothing() {
    #expect(!MouseReports.mayContinue(events("\u{1B}[<0;1;1M")))
    #expect(!MouseReports.mayContinue(events("\u{1B}")))
    #expect(!MouseReports.mayContinue(events("q")))
    #expect(MouseReports.mayContinue(events("\u{1B}[")), "ncurses hands ESC [ over after its delay")
    #expect(KeySequences.folded(events("\u{1B}[")) == events("\u{1B}["), "then it is keys")
  }

  /// A report among any keys that hold no escape (digits, `;`, `M`, `<` among them) is its
  /// event, and every key around it stays as it came.
  @Test func aReportAmongAnyKeysIsFoundAndTheKeysStay() {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["[", "<", "M", "m", ";", "0", "5", "32", "64", "q", " ", "日"]
    func keys() -> String {
      (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
    }
    for _ in 0..<2000 {
      let (before, after) = (keys(), keys())
      let column = Int.random(in: 1...300, using: &generator)
      let report = "\u{1B}[<0;\(column);7M"
      #expect(
        KeySequences.folded(events(before + report + after))
          == events(before) + [mouse(.press, column - 1, 6)] + events(after),
        "\(before) | \(after)")
    }
  }

  @Test func movesOneAfterAnotherCoalesce() {
    let moves = (1...5).map { mouse(.drag, $0, 1) }
    #expect(
      TerminalSession.coalesced([mouse(.press, 0, 1)] + moves + [mouse(.release, 5, 1)]) == [
        mouse(.press, 0, 1), mouse(.drag, 5, 1), mouse(.release, 5, 1),
      ])
  }
}
