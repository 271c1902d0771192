import FeedCore

/// One transaction of state: undo effects (a swipe's reaction and tombstone, an eviction's
/// reaction event, an undo), history rows of cards shown, and settings.
///
/// A swipe is one change: `StateChange(effects: window.swipe(t), shown: [next], time: now)`,
/// so its reaction, its tombstone, any eviction and the next card's history row commit
/// together or not at all. The history rows get their indices in that transaction
/// (`StateStore.apply` returns them): no process numbers rows itself, so two processes
/// writing one history never take the same index.
public struct StateChange: Sendable, Hashable {
  /// Applied in order; `.replace`, `.refuseReplacement` and `.askUser` write nothing.
  public var effects: [UndoEffect]
  /// Cards shown: history rows appended after the effects, numbered after the newest row.
  public var shown: [ShownRecord]
  /// Types enabled (true) or disabled (false).
  public var enabled: [String: Bool]
  /// Seconds since 1970: the time stamped on reaction events.
  public var time: Double

  public init(
    effects: [UndoEffect] = [], shown: [ShownRecord] = [], enabled: [String: Bool] = [:],
    time: Double
  ) {
    self.effects = effects
    self.shown = shown
    self.enabled = enabled
    self.time = time
  }
}

/// A card shown, as a history row before it has its index.
public struct ShownRecord: Sendable, Hashable {
  public var cardID: String
  public var type: String
  public var title: String?
  /// Seconds since 1970.
  public var shownAt: Double

  public init(cardID: String, type: String, title: String?, shownAt: Double) {
    self.cardID = cardID
    self.type = type
    self.title = title
    self.shownAt = shownAt
  }

  public init(_ card: Card, shownAt: Double) {
    self.init(cardID: card.id, type: card.type, title: card.title, shownAt: shownAt)
  }

  /// The history entry this record became at `index`.
  public func entry(at index: Int) -> HistoryEntry {
    HistoryEntry(index: index, cardID: cardID, type: type, title: title, shownAt: shownAt)
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
