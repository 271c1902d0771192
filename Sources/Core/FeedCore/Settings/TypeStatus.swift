/// A type as the settings screen and `ctfo types` show it.
public struct TypeStatus: Sendable, Hashable {
  public var type: CardType
  public var cards: Int
  public var enabled: Bool
  /// Every card of the type failed to prepare this session.
  public var failing: Bool
  public init(type: CardType, cards: Int, enabled: Bool, failing: Bool) {
    self.type = type
    self.cards = cards
    self.enabled = enabled
    self.failing = failing
  }
}
