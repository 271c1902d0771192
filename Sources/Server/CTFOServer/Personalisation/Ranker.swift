#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the personaliser weighs its evidence.
public struct PersonalisationSettings: Sendable, Equatable {
  /// Scores sent per type and install: the next cards it will see.
  public var perType = 8
  /// How many reactions of prior each card starts with, at the population's mean weight: one
  /// reaction does not decide.
  public var priorStrength = 2.0
  /// The half-life of a reaction in "hot", in milliseconds (a week): what readers love now.
  public var halfLife = 7 * 24 * 3_600_000.0
  /// How much the install's taste (its reactions, through similar cards) adds to a card's
  /// popularity.
  public var tasteWeight = 0.5
  /// Shrinks a similarity found from few shared readers (`n / (n + shrink)`).
  public var shrink = 10.0
  /// Similarities weaker than this are noise between cards that share nothing: left out.
  public var minSimilarity = 0.1
  /// The install's taste for a card: the similarity-weighted mean of its deviations (true) or
  /// their sum, which grows with the evidence (false).
  public var averageTaste = true
  /// Draw each card's popularity from its posterior (Thompson sampling) rather than take its
  /// mean: cards few have seen still reach readers.
  public var explore = true
  /// Use the install's taste; false: popularity only (what the harness compares against).
  public var personal = true
  /// An install's newest reactions its taste is made of, and the pairs a reaction updates.
  public var pairsPerReaction = 64
  /// A card with fewer readers is "new: few have seen it yet".
  public var fewReaders = 5
  /// The longest card title a reason quotes, in characters.
  public var titleLimit = 60
  /// Seeds the draws (exploration, equal values): a simulation repeats exactly.
  public var seed: UInt64 = 0

  public init() {}
}

/// One card's place in an install's next cards, and why.
public struct RankedCard: Sendable, Equatable {
  public var card: String
  public var type: String
  /// The score the install's pull carries: in (1, 2) for the next cards, above every score a
  /// card without one draws on the client (in [0, 1)).
  public var score: Double
  public var reason: String
}

/// Ranks an install's unseen cards from the population's evidence and the install's own
/// reactions: per card, its posterior like chance (Beta, with a prior of `priorStrength`
/// reactions at the population's mean, decayed in time; drawn when exploring), plus the
/// install's taste: for each card it reacted to, the similarity of the two cards times how
/// much more (or less) than the average reader it liked that one. The best `perType` of each
/// type are its next cards; equal values are ordered by a random draw, never by the deck.
public struct Ranker: Sendable {
  public var settings: PersonalisationSettings

  public init(settings: PersonalisationSettings = PersonalisationSettings()) {
    self.settings = settings
  }

  /// `unseen`: the install's unseen live cards by type; `reactions`: its final reactions,
  /// newest first; `titles`: what reasons quote; `seed`: the draws' (an install's and a
  /// generation's, so a recompute draws anew).
  public func rank(
    unseen: [String: [String]], reactions: [(card: String, weight: Double)],
    evidence: some EvidenceView, titles: (String) -> String?, at time: Int64,
    random: inout SeededRandom
  ) -> [RankedCard] {
    let mine = Array(reactions.prefix(settings.pairsPerReaction))
    let prior = evidence.meanWeight
    var ranked: [RankedCard] = []
    for type in unseen.keys.sorted() {
      var values: [(card: String, value: Double, tie: UInt64, why: Why)] = []
      for card in unseen[type] ?? [] {
        let held = evidence.card(card) ?? CardEvidence()
        let (liked, disliked) = held.decayed(to: time, halfLife: settings.halfLife)
        let alpha = liked + prior * settings.priorStrength
        let beta = disliked + (1 - prior) * settings.priorStrength
        let popularity = settings.explore ? random.beta(alpha, beta) : alpha / (alpha + beta)
        var value = popularity
        var why = Why.popular(held)
        if held.readers < settings.fewReaders { why = .new }
        if settings.personal, !mine.isEmpty {
          let (taste, because) = taste(of: card, from: mine, evidence: evidence, prior: prior)
          value += settings.tasteWeight * taste
          if let because, settings.tasteWeight * taste > 0.05, held.readers >= settings.fewReaders {
            why = .similar(because)
          }
        }
        values.append((card, value, random.next(), why))
      }
      values.sort { ($0.value, $0.tie) > ($1.value, $1.tie) }
      for entry in values.prefix(settings.perType) {
        ranked.append(
          RankedCard(
            card: entry.card, type: type, score: 1 + Self.squash(entry.value),
            reason: entry.why.text(titles: titles, limit: settings.titleLimit)))
      }
    }
    return ranked
  }

  /// The install's taste for `card`: the similarity-weighted mean of how much more than the
  /// card's average reader it liked each card it reacted to, and the loved card that adds most.
  func taste(
    of card: String, from mine: [(card: String, weight: Double)], evidence: some EvidenceView,
    prior: Double
  ) -> (Double, String?) {
    var sum = 0.0
    var norm = settings.averageTaste ? 0.5 : 1.0
    var best: (card: String, part: Double)?
    for reaction in mine where reaction.card != card {
      guard let stats = evidence.pair(reaction.card, card) else { continue }
      let similarity = stats.similarity(shrink: settings.shrink)
      guard abs(similarity) >= settings.minSimilarity, similarity != 0 else { continue }
      let held = evidence.card(reaction.card) ?? CardEvidence()
      let mean =
        (Double(held.ctfo) + 0.5 * Double(held.tfu) + prior * settings.priorStrength)
        / (Double(held.readers) + settings.priorStrength)
      let part = similarity * (reaction.weight - mean)
      sum += part
      if settings.averageTaste { norm += abs(similarity) }
      if reaction.weight == 1, part > (best?.part ?? 0) { best = (reaction.card, part) }
    }
    return (sum / norm, best?.card)
  }

  /// Maps a value onto (0, 1), keeping its order (and equal values equal).
  static func squash(_ value: Double) -> Double {
    let s = 1 / (1 + exp(-4 * (value - 0.5)))
    return min(max(s, 1e-9), 1 - 1e-9)
  }

  /// The scores to write for an install: its new next cards, and a score below every next
  /// card's (in (0, 1), the range of the client's own draws) for each card of `previous` that
  /// left them, so it does not stay ahead. At most twice `perType` per type.
  public static func writes(ranked: [RankedCard], previous: [(card: String, score: Double)])
    -> [RankedCard]
  {
    let kept = Set(ranked.map(\.card))
    var writes = ranked
    for old in previous where old.score >= 1 && !kept.contains(old.card) {
      writes.append(RankedCard(card: old.card, type: "", score: old.score - 1, reason: ""))
    }
    return writes
  }
}
