import FeedCore

/// A committed reaction waiting in the outbox for the analytics upload.
public struct ReactionEvent: Sendable, Hashable {
  public var sequence: Int64
  public var historyIndex: Int
  public var cardID: String
  public var type: String
  public var reaction: Reaction
  /// Seconds since 1970: when the swipe left the undo window.
  public var committedAt: Double

  public init(
    sequence: Int64, historyIndex: Int, cardID: String, type: String, reaction: Reaction,
    committedAt: Double
  ) {
    self.sequence = sequence
    self.historyIndex = historyIndex
    self.cardID = cardID
    self.type = type
    self.reaction = reaction
    self.committedAt = committedAt
  }
}
