import CardPreparation

/// A card on the feed screen, with its place in the history.
public struct ShownCard: Sendable, Hashable {
  public var prepared: PreparedCard
  /// The card's index in the history (0, 1, 2, ...); the footer shows it from 1.
  public var position: Int

  public init(prepared: PreparedCard, position: Int) {
    self.prepared = prepared
    self.position = position
  }

  /// True when the full-card view shows more than the card screen: the text was truncated, or
  /// the card has a reveal (a trivia answer, a punchline) or a link.
  public var hasMore: Bool {
    prepared.layout.truncated || !(prepared.card.reveal ?? "").isEmpty
      || !(prepared.card.url ?? "").isEmpty
  }
}

/// What the feed screen shows under any other screen.
public enum FeedDisplay: Sendable, Hashable {
  /// The ready queue was empty: a blank card that says it is loading.
  case loading
  case card(ShownCard)
  /// Nothing can be prepared (every enabled type is empty or failing), with the reason.
  case unavailable(String)
}
