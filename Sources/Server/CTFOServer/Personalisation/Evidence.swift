#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the server learns from reactions (ctfo.md, "Personalization"), kept as
/// events arrive: per card, every install's final reaction (CTFO 1, TFU 0.5, TIFB 0), whole
/// and decayed in time; per pair of cards, the sums over the installs that reacted to both, of
/// which their similarity is made (item-to-item collaborative filtering, Linden et al. 2003).
public enum Reactions {
  /// What each final reaction says of the card: CTFO > TFU > TIFB.
  public static let weights = ["CTFO": 1.0, "TFU": 0.5, "TIFB": 0.0]
}

/// One card's evidence from every install.
public struct CardEvidence: Sendable, Equatable {
  /// Installs whose final reaction is CTFO, TFU, TIFB.
  public var ctfo = 0
  public var tfu = 0
  public var tifb = 0
  /// The reactions' weights and their complements (`1 − w`), each decayed to `at`.
  public var liked = 0.0
  public var disliked = 0.0
  /// The time (ms) `liked` and `disliked` are stated at.
  public var at: Int64 = 0

  public init() {}

  public init(ctfo: Int, tfu: Int, tifb: Int, liked: Double, disliked: Double, at: Int64) {
    self.ctfo = ctfo
    self.tfu = tfu
    self.tifb = tifb
    self.liked = liked
    self.disliked = disliked
    self.at = at
  }

  /// Installs that reacted.
  public var readers: Int { ctfo + tfu + tifb }

  /// Adds (`sign` 1) or takes back (`sign` −1) a reaction of `weight` made at `time`.
  public mutating func add(weight: Double, at time: Int64, sign: Double, halfLife: Double) {
    if time > at {
      let factor = Self.decay(time - at, halfLife: halfLife)
      liked *= factor
      disliked *= factor
      at = time
    }
    let factor = Self.decay(at - time, halfLife: halfLife)
    liked = max(0, liked + sign * weight * factor)
    disliked = max(0, disliked + sign * (1 - weight) * factor)
    let step = sign > 0 ? 1 : -1
    switch weight {
    case 1: ctfo += step
    case 0: tifb += step
    default: tfu += step
    }
  }

  /// `liked` and `disliked` decayed to `time`.
  public func decayed(to time: Int64, halfLife: Double) -> (liked: Double, disliked: Double) {
    let factor = time > at ? Self.decay(time - at, halfLife: halfLife) : 1
    return (liked * factor, disliked * factor)
  }

  /// 2^(−age / halfLife); no decay when `halfLife` is infinite.
  static func decay(_ age: Int64, halfLife: Double) -> Double {
    halfLife.isFinite ? pow(2, -Double(age) / halfLife) : 1
  }
}

/// Sums over the installs that reacted to both cards of a pair: how many (`n`), and of their
/// weights `a` (the first card's) and `b`, `Σab`, `Σa`, `Σb`, `Σa²`, `Σb²`.
public struct PairStats: Sendable, Equatable {
  public var n = 0.0
  public var ab = 0.0
  public var a = 0.0
  public var b = 0.0
  public var aa = 0.0
  public var bb = 0.0

  public init() {}

  public init(n: Double, ab: Double, a: Double, b: Double, aa: Double, bb: Double) {
    (self.n, self.ab, self.a, self.b, self.aa, self.bb) = (n, ab, a, b, aa, bb)
  }

  public mutating func add(_ x: Double, _ y: Double, sign: Double) {
    n += sign
    ab += sign * x * y
    a += sign * x
    b += sign * y
    aa += sign * x * x
    bb += sign * y * y
  }

  /// The same sums with the cards swapped.
  public var swapped: PairStats { PairStats(n: n, ab: ab, a: b, b: a, aa: bb, bb: aa) }

  /// The cosine of the two cards' reaction vectors over the installs that reacted to both,
  /// each centred on its mean there (Pearson's correlation: "loved both" says more than "both
  /// are loved by everyone"), shrunk towards 0 by `n / (n + shrink)` so that a few shared
  /// readers do not decide. 0 when either card's reactions there are all alike.
  public func similarity(shrink: Double) -> Double {
    guard n >= 2 else { return 0 }
    let covariance = ab - a * b / n
    let va = aa - a * a / n
    let vb = bb - b * b / n
    guard va > 1e-9, vb > 1e-9 else { return 0 }
    let r = covariance / (va * vb).squareRoot()
    return max(-1, min(1, r)) * n / (n + shrink)
  }
}

/// The two cards of a pair in order, so each pair is kept once.
public struct PairKey: Hashable, Sendable {
  public let first: String
  public let second: String

  /// The key of `x` and `y` and whether they were swapped to make it.
  public static func of(_ x: String, _ y: String) -> (key: PairKey, swapped: Bool) {
    x < y ? (PairKey(first: x, second: y), false) : (PairKey(first: y, second: x), true)
  }

  private init(first: String, second: String) {
    self.first = first
    self.second = second
  }
}

/// What the ranker reads of the population's evidence: the in-memory `Evidence`, or what a
/// store read of its tables for one install.
public protocol EvidenceView {
  func card(_ id: String) -> CardEvidence?
  /// The sums of the pair with `x`'s weights as `a`.
  func pair(_ x: String, _ y: String) -> PairStats?
  /// The mean weight of every reaction: the prior's mean.
  var meanWeight: Double { get }
}

/// The population's evidence, kept as reactions arrive: each reaction costs one card's update
/// and one pair's per card the same install reacted to (at most `Settings.pairsPerReaction`).
public struct Evidence: EvidenceView, Sendable {
  public private(set) var cards: [String: CardEvidence] = [:]
  public private(set) var pairs: [PairKey: PairStats] = [:]
  public private(set) var totalWeight = 0.0
  public private(set) var totalCount = 0
  public let settings: PersonalisationSettings

  public init(settings: PersonalisationSettings = PersonalisationSettings()) {
    self.settings = settings
  }

  public func card(_ id: String) -> CardEvidence? { cards[id] }

  /// Starts from evidence read elsewhere (a store's rows).
  mutating func load(cards: [String: CardEvidence], pairs: [PairKey: PairStats]) {
    self.cards = cards
    self.pairs = pairs
  }

  public func pair(_ x: String, _ y: String) -> PairStats? {
    let (key, swapped) = PairKey.of(x, y)
    guard let stats = pairs[key] else { return nil }
    return swapped ? stats.swapped : stats
  }

  public var meanWeight: Double { (totalWeight + 1) / (Double(totalCount) + 2) }

  /// An install's final reaction to `card` became `weight` at `time` (before: `old`, made at
  /// `oldTime`); `others`: the install's final reactions to other cards, newest first.
  public mutating func react(
    card: String, weight: Double, at time: Int64, old: (weight: Double, time: Int64)?,
    others: [(card: String, weight: Double)]
  ) {
    let halfLife = settings.halfLife
    if let old {
      cards[card, default: CardEvidence()].add(
        weight: old.weight, at: old.time, sign: -1, halfLife: halfLife)
      totalWeight -= old.weight
      totalCount -= 1
    }
    cards[card, default: CardEvidence()].add(weight: weight, at: time, sign: 1, halfLife: halfLife)
    totalWeight += weight
    totalCount += 1
    for other in others.prefix(settings.pairsPerReaction) where other.card != card {
      let (key, swapped) = PairKey.of(card, other.card)
      var stats = pairs[key, default: PairStats()]
      if let old {
        if swapped { stats.add(other.weight, old.weight, sign: -1) } else {
          stats.add(old.weight, other.weight, sign: -1)
        }
      }
      if swapped { stats.add(other.weight, weight, sign: 1) } else {
        stats.add(weight, other.weight, sign: 1)
      }
      pairs[key] = stats
    }
  }
}
