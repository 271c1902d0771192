/// A card's place in the engine: its type and its ordinal there.
public struct CardKey: Sendable, Hashable {
  public var type: String
  public var ordinal: Int

  public init(type: String, ordinal: Int) {
    self.type = type
    self.ordinal = ordinal
  }
}
