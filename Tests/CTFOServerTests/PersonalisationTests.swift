import Testing

@testable import CTFOServer

/// The personaliser's rules, one test each: the evidence's prior, its decay in
/// time, the similarity of cards, exploration, equal values in a random order, the bound on
/// scores, and why a card was ranked.
@Suite struct PersonalisationTests {
  static let day: Int64 = 24 * 3_600_000

  /// Reactions made by `installs` fresh installs, each to the cards given, in order.
  static func evidence(
    _ settings: PersonalisationSettings = PersonalisationSettings(),
    _ reactions: [[(card: String, weight: Double)]], at time: Int64 = 0
  ) -> Evidence {
    var evidence = Evidence(settings: settings)
    for install in reactions {
      var mine: [(card: String, weight: Double)] = []
      for reaction in install {
        evidence.react(
          card: reaction.card, weight: reaction.weight, at: time, old: nil, others: mine)
        mine.insert(reaction, at: 0)
      }
    }
    return evidence
  }

  static func rank(
    _ settings: PersonalisationSettings, _ evidence: Evidence, unseen: [String],
    reactions: [(card: String, weight: Double)] = [], at time: Int64 = 0, seed: UInt64 = 1
  ) -> [RankedCard] {
    var random = SeededRandom(seed: seed)
    return Ranker(settings: settings).rank(
      unseen: ["t": unseen], reactions: reactions, evidence: evidence, titles: { _ in nil },
      at: time, random: &random)
  }

  static var exact: PersonalisationSettings {
    var settings = PersonalisationSettings()
    settings.explore = false
    return settings
  }

  @Test func oneReactionDoesNotOutweighManyUnderThePrior() {
    // "one": a single CTFO; "many": 40 CTFO of 50; "other": 10 of 50 (the mean is 0.5).
    var reactions: [[(card: String, weight: Double)]] = [[("one", 1)]]
    reactions += (0..<50).map { [("many", $0 < 40 ? 1 : 0), ("other", $0 < 10 ? 1 : 0)] }
    let ranked = Self.rank(Self.exact, Self.evidence(Self.exact, reactions), unseen: ["one", "many"])
    #expect(ranked.map(\.card) == ["many", "one"], "\(ranked)")
  }

  @Test func hotDecaysOldReactions() {
    // Same counts; "old" was loved a month ago and disliked now, "now" the other way round.
    var evidence = Evidence(settings: Self.exact)
    for i in 0..<10 {
      evidence.react(card: "old", weight: 1, at: 0, old: nil, others: [])
      evidence.react(card: "now", weight: 0, at: 0, old: nil, others: [])
      evidence.react(card: "old", weight: 0, at: 30 * Self.day + Int64(i), old: nil, others: [])
      evidence.react(card: "now", weight: 1, at: 30 * Self.day + Int64(i), old: nil, others: [])
    }
    let ranked = Self.rank(Self.exact, evidence, unseen: ["old", "now"], at: 30 * Self.day)
    #expect(ranked.map(\.card) == ["now", "old"], "\(ranked)")
    #expect(ranked[0].score > ranked[1].score)
  }

  @Test func readersWhoLovedACardLovedThisOne() {
    // Two kinds of readers, 30 each: one loves the x cards and not the y cards, the other the
    // opposite; every card is as popular as any other.
    var reactions: [[(card: String, weight: Double)]] = []
    for i in 0..<60 {
      let (loved, not) = i % 2 == 0 ? ("x", "y") : ("y", "x")
      reactions.append([(loved + "1", 1), (not + "1", 0), (loved + "2", 1), (not + "2", 0)])
    }
    let evidence = Self.evidence(Self.exact, reactions)
    #expect(evidence.pair("x1", "x2")!.similarity(shrink: 10) > 0.5)
    #expect(evidence.pair("x1", "y2")!.similarity(shrink: 10) < -0.5)
    for (loved, expected) in [("x1", "x2"), ("y1", "y2")] {
      let ranked = Self.rank(
        Self.exact, evidence, unseen: ["x2", "y2"], reactions: [(loved, 1)])
      #expect(ranked.first?.card == expected, "an install that loved \(loved): \(ranked)")
      #expect(ranked[0].score > ranked[1].score + 0.1)
    }
  }

  @Test func aNewCardStillReachesReadersByThompsonSampling() {
    // "a" and "b": 70 % loved of 100 readers; "c": 50 %; "new": none. Its prior mean (the
    // population's, 0.63) is below a's and b's: only exploration puts it first.
    var reactions: [[(card: String, weight: Double)]] = []
    for card in ["a", "b", "c"] {
      reactions += (0..<100).map { [(card, $0 < (card == "c" ? 50 : 70) ? 1 : 0)] }
    }
    var settings = PersonalisationSettings()
    settings.perType = 1
    let evidence = Self.evidence(settings, reactions)
    let firsts = (1...200).map {
      Self.rank(settings, evidence, unseen: ["a", "b", "c", "new"], seed: $0)[0].card
    }
    let newFirst = firsts.filter { $0 == "new" }.count
    #expect(newFirst >= 20, "the new card came first \(newFirst) times of 200")
    #expect(newFirst <= 120, "evidence still counts: the new card came first \(newFirst) times")
    settings.explore = false
    #expect(Self.rank(settings, evidence, unseen: ["a", "b", "c", "new"])[0].card != "new")
  }

  @Test func equalValuesComeInARandomOrderNotTheDecks() {
    var settings = Self.exact
    settings.perType = 1
    let deck = (0..<5).map { "card\($0)" }
    let firsts = (1...100).map {
      Self.rank(settings, Evidence(settings: settings), unseen: deck, seed: $0)[0].card
    }
    #expect(Set(firsts).count == 5, "\(Set(firsts))")
    #expect(firsts.filter { $0 == deck[0] }.count < 40, "the deck's first card came first too often")
    #expect(firsts.filter { $0 == deck[4] }.count < 40, "the deck's last card came first too often")
  }

  @Test func anInstallGetsABoundedNumberOfScoresPerTypeAboveTheClientsDraws() {
    var settings = PersonalisationSettings()
    settings.perType = 8
    let unseen = ["a": (0..<100).map { "a\($0)" }, "b": (0..<3).map { "b\($0)" }]
    var random = SeededRandom(seed: 7)
    let ranked = Ranker(settings: settings).rank(
      unseen: unseen, reactions: [], evidence: Evidence(settings: settings), titles: { _ in nil },
      at: 0, random: &random)
    #expect(ranked.filter { $0.type == "a" }.count == 8)
    #expect(ranked.filter { $0.type == "b" }.count == 3)
    #expect(ranked.allSatisfy { $0.score > 1 && $0.score < 2 })
    // A recompute: the cards that left the next ones are sent below every next card.
    let previous = (0..<8).map { (card: "a\(90 + $0)", score: 1.5) }
    let writes = Ranker.writes(ranked: ranked, previous: previous)
    let left = writes.filter { $0.card.hasPrefix("a9") && !ranked.map(\.card).contains($0.card) }
    #expect(writes.count <= 2 * 8 + 3)
    #expect(left.allSatisfy { $0.score < 1 })
  }

  @Test func whyACardWasRankedSaysWhichEvidence() {
    var held = CardEvidence()
    held.ctfo = 1000
    held.tfu = 104
    held.tifb = 100
    #expect(Why.popular(held).text(titles: { _ in nil }, limit: 60)
      == "loved by 83 % of 1,204 readers")
    #expect(Why.new.text(titles: { _ in nil }, limit: 60) == "new: few have seen it yet")
    #expect(
      Why.similar("o").text(titles: { _ in "Octopuses have three hearts" }, limit: 60)
        == "readers who loved \u{201C}Octopuses have three hearts\u{201D} loved this")
    let hostile = "\u{1B}[31mred\u{202E}" + String(repeating: "long ", count: 200) + "\n"
    let text = Why.similar("h").text(titles: { _ in hostile }, limit: 60)
    #expect(text.count <= 60 + 40)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(text)")

    // From the ranker: a card few have seen, a popular one, one like a card the install loved.
    var reactions: [[(card: String, weight: Double)]] = []
    for i in 0..<40 {
      let (loved, not) = i % 2 == 0 ? ("x", "y") : ("y", "x")
      reactions.append([(loved + "1", 1), (not + "1", 0), (loved + "2", 1), (not + "2", 0)])
    }
    reactions.append([("few", 1)])
    let evidence = Self.evidence(Self.exact, reactions)
    let ranked = Self.rank(
      Self.exact, evidence, unseen: ["x2", "y2", "few"], reactions: [("x1", 1)])
    let reasons = Dictionary(uniqueKeysWithValues: ranked.map { ($0.card, $0.reason) })
    #expect(reasons["few"] == "new: few have seen it yet")
    #expect(reasons["x2"] == "readers who loved \u{201C}x1\u{201D} loved this")
    #expect(reasons["y2"] == "loved by 50 % of 40 readers")
  }

  @Test func evidenceKeptAsReactionsArriveIsEvidenceMadeFromTheFinalReactions() {
    // Model-based: random reactions, some changed later; the incremental sums equal those
    // made at once from each install's final reactions.
    var random = SeededRandom(seed: 46)
    var settings = PersonalisationSettings()
    settings.halfLife = .infinity
    var kept = Evidence(settings: settings)
    var finals: [[String: Double]] = Array(repeating: [:], count: 30)
    var order: [[String]] = Array(repeating: [], count: 30)
    let weights = [0, 0.5, 1.0]
    for _ in 0..<600 {
      let install = Int(random.next() % 30)
      let card = "c\(random.next() % 12)"
      let weight = weights[Int(random.next() % 3)]
      let old = finals[install][card].map { (weight: $0, time: Int64(0)) }
      let others = order[install].reversed().filter { $0 != card }.map {
        (card: $0, weight: finals[install][$0]!)
      }
      kept.react(card: card, weight: weight, at: 0, old: old, others: others)
      finals[install][card] = weight
      if old == nil { order[install].append(card) }
    }
    let fresh = Self.evidence(
      settings, order.enumerated().map { install, cards in
        cards.map { (card: $0, weight: finals[install][$0]!) }
      })
    for card in (0..<12).map({ "c\($0)" }) {
      let (a, b) = (kept.card(card) ?? CardEvidence(), fresh.card(card) ?? CardEvidence())
      #expect(a.readers == b.readers && a.ctfo == b.ctfo && a.tfu == b.tfu, "\(card)")
      #expect(abs(a.liked - b.liked) < 1e-9 && abs(a.disliked - b.disliked) < 1e-9, "\(card)")
      for other in (0..<12).map({ "c\($0)" }) where other != card {
        let (x, y) = (kept.pair(card, other) ?? PairStats(), fresh.pair(card, other) ?? PairStats())
        #expect(abs(x.n - y.n) < 1e-9 && abs(x.ab - y.ab) < 1e-9 && abs(x.a - y.a) < 1e-9)
        #expect(abs(x.aa - y.aa) < 1e-9 && abs(x.bb - y.bb) < 1e-9, "\(card) \(other)")
      }
    }
  }
}
