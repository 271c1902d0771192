import CardPreparation
import CardText
import FeedCore
import Testing

/// The lay-out stage of the preparation pipeline: an actor holding the text area; each card
/// sanitised once and cut to that area; a resize that arrives after a newer one changes nothing.
@Suite struct LayoutStageTests {
  private static let card = Card(
    id: "w", type: "fact", title: "Wide\u{1B}[31m",
    body: "A body long enough to be cut on a narrow area, and then some more words.")

  @Test func aCardIsSanitisedAndCutToTheAreaItHolds() async {
    let narrow = TextArea(width: 10, height: 2)
    let stage = LayoutStage(area: narrow) { Preparation.laidOut($0, for: $1) }
    let (prepared, area) = await stage.prepare(Self.card)
    #expect(area == narrow)
    #expect(prepared == Preparation.laidOut(Preparation.sanitized(Self.card), for: narrow))
    #expect(prepared.layout.truncated)
    #expect(prepared.layout.lines.allSatisfy { DisplayWidth.of($0) <= 10 })
  }

  @Test func aResizeLaysCardsOutAgainAndALateOneChangesNothing() async {
    let narrow = TextArea(width: 10, height: 2)
    let wide = TextArea(width: 60, height: 10)
    let stage = LayoutStage(area: narrow) { Preparation.laidOut($0, for: $1) }
    let safe = Preparation.sanitized(Self.card)
    #expect(await stage.resize(to: wide, number: 2, relaying: [safe]) == [
      Preparation.laidOut(safe, for: wide)
    ])
    // Resize 1's task ran after resize 2's: the area stays the newer one.
    #expect(await stage.resize(to: narrow, number: 1, relaying: [safe]) == nil)
    #expect(await stage.area == wide)
    #expect(await stage.prepare(Self.card).area == wide)
  }
}
