import CardText
import FeedCore

/// A card ready to show: its sanitised data and its layout for the current text area.
public struct PreparedCard: Sendable, Hashable {
  public var card: Card
  public var layout: CardLayout
  public init(card: Card, layout: CardLayout) {
    self.card = card
    self.layout = layout
  }
}

/// What the feed hands out when asked for the next card.
public enum FeedItem: Sendable, Hashable {
  case card(PreparedCard)
  /// The ready queue is empty: show the loading placeholder until `onReady` fires.
  case loading
  /// Nothing can be prepared at all (every enabled type is empty or failing).
  case unavailable(String)
}
