/// A card that was shown, at its fixed index in the history (0, 1, 2, ...).
public struct HistoryEntry: Sendable, Hashable, Codable {
  public var index: Int
  public var cardID: String
  public var type: String
  public var title: String?
  /// Seconds since 1970, passed in by the caller (FeedCore reads no clock).
  public var shownAt: Double
  /// The reaction, once the card was swiped; nil while unswiped or after an undo.
  public var reaction: Reaction?

  public init(
    index: Int, cardID: String, type: String, title: String?, shownAt: Double,
    reaction: Reaction? = nil
  ) {
    self.index = index
    self.cardID = cardID
    self.type = type
    self.title = title
    self.shownAt = shownAt
    self.reaction = reaction
  }
}

/// A swiped card still inside the undo window.
public struct Tombstone: Sendable, Hashable, Codable {
  public var historyIndex: Int
  public var cardID: String
  public var type: String
  public var direction: SwipeDirection

  public init(historyIndex: Int, cardID: String, type: String, direction: SwipeDirection) {
    self.historyIndex = historyIndex
    self.cardID = cardID
    self.type = type
    self.direction = direction
  }
}
