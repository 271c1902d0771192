/// The three reactions of ctfo.md, one per swipe direction.
public enum Reaction: String, Sendable, Hashable, Codable, CaseIterable {
  /// Swipe right.
  case tfu = "TFU"
  /// Swipe left.
  case tifb = "TIFB"
  /// Swipe up.
  case ctfo = "CTFO"

  /// What the reaction says of a card, in plain words, for whoever meets the name first (the
  /// help, the hint bar, the docs). CTFO says the most and TIFB the least, as the server
  /// weighs them.
  public var meaning: String {
    switch self {
    case .tfu: "liked it"
    case .tifb: "not for me"
    case .ctfo: "loved it"
    }
  }
}

/// The directions a card can be swiped in.
public enum SwipeDirection: String, Sendable, Hashable, Codable, CaseIterable {
  case right, left, up

  public var reaction: Reaction {
    switch self {
    case .right: .tfu
    case .left: .tifb
    case .up: .ctfo
    }
  }

  public init(reaction: Reaction) {
    switch reaction {
    case .tfu: self = .right
    case .tifb: self = .left
    case .ctfo: self = .up
    }
  }
}
