import CardText
import FeedCore

/// Preparation's pure steps: sanitise a fetched card once, lay it out for a text area.
public enum Preparation {
  /// The card with every text field made safe to draw.
  public static func sanitized(_ card: Card) -> Card {
    var card = card
    card.title = card.title.map(Sanitizer.sanitize)
    card.body = Sanitizer.sanitize(card.body)
    card.source = card.source.map(Sanitizer.sanitizeLine)
    card.url = card.url.map(Sanitizer.sanitizeLine)
    card.reveal = card.reveal.map(Sanitizer.sanitize)
    card.why = card.why.map(Sanitizer.sanitizeLine)
    return card
  }

  /// A sanitised card laid out for a text area, a cut line ending in `mark`.
  public static func laidOut(
    _ card: Card, for area: TextArea, mark: TruncationMark = .ellipsis
  ) -> PreparedCard {
    let layout = CardLayout.layout(
      title: card.title, body: card.body, width: area.width, height: area.height, mark: mark)
    return PreparedCard(card: card, layout: layout)
  }
}
