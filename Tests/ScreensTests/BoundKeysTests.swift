import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// The hint bar and the help show the keys config.toml binds, not the defaults.
@Suite struct BoundKeysTests {
  private let keys: KeyBindings

  init() throws {
    keys = try KeyBindings(configured: [
      ("swipe-right", ["d", "Right"], 2), ("quit", ["x"], 3), ("search", ["f"], 4),
      ("open-link", ["O"], 5),
    ])
  }

  private func rows(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
    return grid.lines
  }

  private var feed: AppState {
    var state = AppState(width: 80, height: 24, keys: keys)
    let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
    _ = state.reduce(.dealt(.card(card), position: 0))
    return state
  }

  @Test func theFeedsHintBarShowsTheFirstKeyOfEachAction() {
    let bar = rows(feed).last ?? ""
    #expect(bar.contains("d TFU") && bar.contains("x quit") && bar.contains("← TIFB"), "\(bar)")
  }

  @Test func theHistoryAndTheWholeCardShowTheirBoundKeys() {
    var state = feed
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    #expect(rows(state).last?.contains("f search") == true, "\(rows(state).last ?? "")")
    var card = Fixtures.asciiCard
    card.url = "https://example.org"
    _ = state.reduce(.cardOpened(Fixtures.prepared(card, width: 80, height: 24)))
    #expect(rows(state).last?.contains("O open link") == true, "\(rows(state).last ?? "")")
  }

  @Test func theHelpListsTheBoundKeys() {
    var state = feed
    _ = state.reduce(.key(.character("?")))
    let help = rows(state)
    #expect(help.contains { $0.contains("d  →") && $0.contains("swipe right") }, "\(help)")
    #expect(help.contains { $0.contains("x  Ctrl-C") && $0.contains("quit") }, "\(help)")
    #expect(help.contains { $0.contains("f ") && $0.contains("search the history") }, "\(help)")
  }
}
