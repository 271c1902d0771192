import CardText
import FeedCore

/// The lay-out stage of the preparation pipeline: an actor that sanitises each fetched card
/// once and lays it out (wrapped, cut to the terminal's width and height with the truncation
/// mark) for the text area it holds. A resize changes that area here and lays the cards
/// already ready out again from their fetched data.
///
///     let stage = LayoutStage(area: TextArea(width: 60, height: 12)) { Preparation.laidOut($0, for: $1) }
///     let (card, area) = await stage.prepare(fetched)
public actor LayoutStage {
  /// The text area new layouts are for.
  public private(set) var area: TextArea
  /// The number of the last resize applied: one that arrives late (its task ran after a
  /// newer one's) changes nothing.
  private var resizes: UInt64 = 0
  private let layout: @Sendable (Card, TextArea) -> PreparedCard

  /// - Parameter layout: lays a sanitised card out for an area (`Preparation.laidOut`; a
  ///   test counts the calls).
  public init(area: TextArea, layout: @escaping @Sendable (Card, TextArea) -> PreparedCard) {
    self.area = area
    self.layout = layout
  }

  /// The fetched card sanitised and laid out for the area of now, with that area.
  public func prepare(_ fetched: Card) -> (card: PreparedCard, area: TextArea) {
    (layout(Preparation.sanitized(fetched), area), area)
  }

  /// The area is `area` from resize number `number` on; `cards` (already sanitised) are laid
  /// out again for it. Nil when a newer resize was applied first.
  public func resize(to area: TextArea, number: UInt64, relaying cards: [Card])
    -> [PreparedCard]?
  {
    guard number > resizes else { return nil }
    resizes = number
    self.area = area
    return cards.map { layout($0, area) }
  }
}
