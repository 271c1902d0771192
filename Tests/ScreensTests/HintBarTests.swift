import App
import CardText
import Screens
import TestFixtures
import Testing

/// What the hint bar offers in the whole view of a card.
@Suite struct HintBarTests {
  private func bar(_ state: AppState) -> String {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines.last ?? ""
  }

  /// The feed's card swipes from its whole view, and the bar says so; a
  /// card opened from the history does not.
  @Test func theWholeViewOfTheFeedsCardOffersItsSwipes() {
    var state = Fixtures.showing(Fixtures.emojiCard)
    _ = state.reduce(.key(.enter))
    #expect(bar(state).contains("↑↓ scroll  → TFU  ← TIFB"), "\(bar(state))")
    var history = state
    history.mode = .fullCard(
      FullCardView(
        card: Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24),
        origin: .history(HistoryBrowser(entries: []))))
    #expect(!bar(history).contains("TFU"), "\(bar(history))")
  }
}
