import CTFOWire

/// The change a pull sends.
public struct Changes: Sendable {
  public var full: Bool
  public var types: [Wire.CardType] = []
  public var cards: [Wire.Card] = []
  public var removed: [String] = []
  public var scores: [Wire.Score] = []
  public var notifications: [Wire.Notification] = []
  /// The status set for the install that pulls; nil is the default, `Changes.defaultStatus`.
  public var userStatus: String?

  /// The status of a user the operator set none for.
  public static let defaultStatus = "active"
}

/// What a prune deleted.
public struct PruneReport: Sendable, Equatable {
  public var tokens = 0
  public var events = 0
  public var installs = 0
}

/// What loading the decks changed.
public struct LoadReport: Sendable, Equatable {
  public var added = 0
  public var changed = 0
  public var removed = 0

  public init(added: Int = 0, changed: Int = 0, removed: Int = 0) {
    self.added = added
    self.changed = changed
    self.removed = removed
  }
}
