import App
import CardText
import Screens
import TestFixtures
import Testing

/// The help screen on a terminal too short for every key: it says there is more, and the list
/// keys scroll it to its last line.
@Suite struct HelpScrollTests {
  private func rows(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
    return grid.lines
  }

  @Test func aShortHelpScreenSaysThereIsMoreAndScrollsToItsEnd() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
    _ = state.reduce(.key(.character("?")))
    #expect(rows(state)[0].contains("↓ more"), "\(rows(state))")
    #expect(!rows(state).joined().contains("Esc  q"), "\(rows(state))")
    for key in [Key.down, .character("j"), .pageDown, .end] { _ = state.reduce(.key(key)) }
    let end = rows(state)
    #expect(end.contains { $0.contains("Esc  q") && $0.contains("back") }, "\(end)")
    #expect(!end[0].contains("↓"), "\(end)")
    #expect(end[0].contains("↑ more"), "\(end)")
    _ = state.reduce(.key(.home))
    #expect(rows(state)[2].contains("swipe right"), "\(rows(state))")
  }

  /// At 30x10 the help's longer lines end with "…" where they are cut, never mid-word with
  /// nothing to say so.
  @Test func aNarrowHelpScreenMarksTheLinesItCuts() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 30, height: 10)
    _ = state.reduce(.key(.character("?")))
    let lines = rows(state).filter { $0.contains("swipe") }
    #expect(lines.count == 3, "\(rows(state))")
    for line in lines {
      #expect(line.trimmingSuffix().hasSuffix("…"), "cut without a mark: \(line)")
    }
  }

  @Test func aTallHelpScreenShowsEveryKeyAndNoMark() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 80, height: 24)
    _ = state.reduce(.key(.character("?")))
    #expect(!rows(state)[0].contains("more"), "\(rows(state))")
    #expect(rows(state).contains { $0.contains("Esc  q") })
    // Each reaction says what it means.
    for line in [
      "swipe right: TFU, liked it", "swipe left: TIFB, not for me", "swipe up: CTFO, loved it",
    ] {
      #expect(rows(state).contains { $0.contains(line) }, "\(line)")
    }
  }
}

extension String {
  fileprivate func trimmingSuffix() -> Substring {
    self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)]
  }
}
