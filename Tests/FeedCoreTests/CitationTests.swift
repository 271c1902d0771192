import FeedCore
import Testing

/// Where a card's source and link may show: the project's own cards cite
/// nothing; a card with an answer keeps its source and link for its whole view.
@Suite struct CitationTests {
  private let fact = Card(
    id: "f", type: "fact", body: "b", source: "Atlas", url: "https://example.org/f")
  private let trivia = Card(
    id: "t", type: "trivia", body: "Capital?", source: "Atlas: Canberra",
    url: "https://example.org/Canberra", reveal: "Canberra")
  private let haiku = Card(id: "h", type: "haiku", body: "b", source: Card.ownSource)

  @Test func aCardWithoutAnAnswerShowsItsSourceOnItsFace() {
    #expect(fact.faceSource == "Atlas" && fact.faceURL == "https://example.org/f")
    #expect(fact.citedSource == "Atlas")
  }

  @Test func aCardWithAnAnswerKeepsItsSourceAndLinkForTheWholeCard() {
    #expect(trivia.faceSource == nil && trivia.faceURL == nil)
    #expect(trivia.citedSource == "Atlas: Canberra")
  }

  @Test func theProjectsOwnCardsCiteNothing() {
    #expect(haiku.faceSource == nil && haiku.citedSource == nil)
  }
}
