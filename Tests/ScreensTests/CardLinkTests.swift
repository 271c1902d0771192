import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// A card's link shows in the whole-card view, under its source, made safe to draw.
@Suite struct CardLinkTests {
  private func rows(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
    return grid.lines
  }

  static let linked = Card(
    id: "l1", type: "fact", title: "Grep", body: "Shows lines around each match.",
    source: "GNU grep manual", url: "https://www.gnu.org/software/grep/manual/")

  @Test func theWholeCardShowsTheLinkUnderTheSource() {
    var state = Fixtures.showing(Self.linked, width: 80, height: 24)
    _ = state.reduce(.key(.enter))
    let shown = rows(state)
    let source = shown.firstIndex { $0.contains("GNU grep manual") }
    let link = shown.firstIndex { $0.contains("https://www.gnu.org/software/grep/manual/") }
    #expect(source != nil && link == source.map { $0 + 1 }, "\(shown)")
    #expect(shown.last?.contains("o open link") == true, "\(shown)")
  }
}
