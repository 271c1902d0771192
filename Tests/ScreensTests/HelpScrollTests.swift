import App
import CardText
import Screens
import TestSupport
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

  @Test func aTallHelpScreenShowsEveryKeyAndNoMark() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 80, height: 24)
    _ = state.reduce(.key(.character("?")))
    #expect(!rows(state)[0].contains("more"), "\(rows(state))")
    #expect(rows(state).contains { $0.contains("Esc  q") })
  }
}
