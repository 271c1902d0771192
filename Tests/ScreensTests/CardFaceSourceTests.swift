import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// The card's face shows its source unless the card has an answer (a trivia source may give
/// it away) or is the project's own.
@Suite struct CardFaceSourceTests {
  private func screen(_ card: Card) -> String {
    let state = Fixtures.showing(card)
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines.joined(separator: "\n")
  }

  @Test func sourcesShowOnlyWhereTheyGiveNothingAway() {
    let fact = Card(id: "f", type: "fact", title: "T", body: "b", source: "Atlas of facts")
    #expect(screen(fact).contains("Atlas of facts"))
    var trivia = fact
    trivia.reveal = "Canberra"
    trivia.source = "Atlas: Canberra"
    #expect(!screen(trivia).contains("Canberra"))
    var own = fact
    own.source = Card.ownSource
    #expect(!screen(own).contains(" \(Card.ownSource) "))
  }
}
