import FeedCore

/// One transaction of state: undo effects (a swipe's reaction and tombstone, an eviction's
/// reaction event, an undo), history rows of cards shown, and settings.
///
/// A swipe is one change: `StateChange(effects: window.swipe(t), shown: [next], time: now)`,
/// so its reaction, its tombstone, any eviction and the next card's history row commit
/// together or not at all.
public struct StateChange: Sendable, Hashable {
  /// Applied in order; `.replace`, `.refuseReplacement` and `.askUser` write nothing.
  public var effects: [UndoEffect]
  /// History rows appended, after the effects.
  public var shown: [HistoryEntry]
  /// Types enabled (true) or disabled (false).
  public var enabled: [String: Bool]
  /// Seconds since 1970: the time stamped on reaction events.
  public var time: Double

  public init(
    effects: [UndoEffect] = [], shown: [HistoryEntry] = [], enabled: [String: Bool] = [:],
    time: Double
  ) {
    self.effects = effects
    self.shown = shown
    self.enabled = enabled
    self.time = time
  }
}

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
