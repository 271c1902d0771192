/// A place in the feed's queues: one card of a type, being prepared or ready.
public struct FeedSlot: Sendable, Hashable {
  /// Unique for the engine's lifetime; a result for a slot that left the queues is ignored.
  public let id: UInt64
  public let type: String
  /// The card's ordinal within its type (see `CardSource`).
  public let ordinal: Int
  /// The slot's place in the order dealt: its id, or the id of the slot it replaced when its
  /// card is prepared again (a live change), so the card keeps its turn.
  public let dealt: UInt64

  public init(id: UInt64, type: String, ordinal: Int, dealt: UInt64? = nil) {
    self.id = id
    self.type = type
    self.ordinal = ordinal
    self.dealt = dealt ?? id
  }
}

/// What the feed engine asks its runner to do.
public enum FeedEffect: Sendable, Hashable {
  /// Start preparing this slot's card: fetch, sanitise, lay out; then report `prepared` or
  /// `failed`.
  case prepare(FeedSlot)
  /// Stop preparing this slot: it left the queue. Its result, if any, is ignored.
  case cancel(FeedSlot)
}

/// A card type as the engine sees it.
public struct TypeStanding: Sendable, Hashable {
  public var name: String
  public var cards: Int
  public var enabled: Bool
  /// Every card of the type failed to prepare: it is set aside for the session.
  public var failing: Bool
}
