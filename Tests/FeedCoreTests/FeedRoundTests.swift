import Testing

@testable import FeedCore

/// The rounds of a type as the user sees them, on the paths where they broke: small types
/// dealt ahead of the queue, equal server scores, a type turned on or a card edited while its
/// next round waits in the queue, and a type whose every card failed.
@Suite struct FeedRoundTests {
  /// Shows `count` cards as the app does (each preparation ends at once, in deal order, and the
  /// first ready card is taken) or as `ctfo next` does (in deal order); the cards shown.
  static func shows(
    _ engine: inout FeedEngine<FeedSlot>, count: Int, inDealOrder: Bool = false,
    pending: inout [FeedSlot]
  ) -> [FeedSlot] {
    var shown: [FeedSlot] = []
    for _ in 0..<count {
      for slot in pending { engine.prepared(slot, slot) }
      pending = []
      let (card, effects) = engine.takeNext(inDealOrder: inDealOrder)
      if let card { shown.append(card) }
      for case .prepare(let slot) in effects { pending.append(slot) }
    }
    return shown
  }

  static func engine(
    _ types: [(String, Int)], enabled: Set<String>? = nil, seed: UInt64
  ) -> (FeedEngine<FeedSlot>, [FeedSlot]) {
    var engine = FeedEngine<FeedSlot>(
      types: types.map { (name: $0.0, cards: $0.1) }, enabled: enabled ?? Set(types.map(\.0)),
      seed: seed)
    let pending = engine.fill().compactMap { effect -> FeedSlot? in
      if case .prepare(let slot) = effect { slot } else { nil }
    }
    return (engine, pending)
  }

  /// The rounds of a single type of `size` cards, cut from what was shown.
  static func rounds(_ shown: [FeedSlot], size: Int) -> [[Int]] {
    let ordinals = shown.map(\.ordinal)
    return stride(from: 0, through: ordinals.count - size, by: size).map {
      Array(ordinals[$0..<$0 + size])
    }
  }

  /// A type of 3, 4 or 7 cards alone with the queue of 5: each round is a permutation of its
  /// cards, and 30 rounds come in several orders (every round once came in one order, as the
  /// cards of the last round still queued were dealt again oldest first).
  @Test(arguments: [3, 4, 7], [false, true])
  func everyRoundOfASmallTypeIsAFreshOrder(size: Int, inDealOrder: Bool) {
    for seed in UInt64(1)...10 {
      var (engine, pending) = Self.engine([("s", size)], seed: seed)
      let shown = Self.shows(
        &engine, count: 30 * size, inDealOrder: inDealOrder, pending: &pending)
      let rounds = Self.rounds(shown, size: size)
      #expect(rounds.count == 30)
      for round in rounds { #expect(round.sorted() == Array(0..<size), "seed \(seed): \(round)") }
      let orders = Set(rounds).count
      #expect(orders >= 3, "seed \(seed), \(size) cards: \(orders) orders in 30 rounds")
      for (a, b) in zip(rounds, rounds.dropFirst()) {
        #expect(a.last != b.first, "seed \(seed): a card shown twice in a row: \(a) \(b)")
      }
    }
  }

  /// The same seed deals the same rounds.
  @Test func theSameSeedDealsTheSameRounds() {
    var (a, pendingA) = Self.engine([("s", 4), ("t", 2)], seed: 9)
    var (b, pendingB) = Self.engine([("s", 4), ("t", 2)], seed: 9)
    let first = Self.shows(&a, count: 60, inDealOrder: true, pending: &pendingA)
    let second = Self.shows(&b, count: 60, inDealOrder: true, pending: &pendingB)
    #expect(first.map(\.ordinal) == second.map(\.ordinal))
    #expect(first.map(\.type) == second.map(\.type))
  }

  /// A server that scores every card of a type alike leaves their order random: the first
  /// card of the round is any of them (it was always the lowest ordinal, the deck's order),
  /// and each round comes in its own order.
  @Test func equalScoresAreBrokenAtRandom() {
    var firsts = [Int](repeating: 0, count: 10)
    var differentRounds = 0
    for seed in UInt64(1)...200 {
      var engine = FeedEngine<FeedSlot>(
        types: [(name: "tip", cards: 10)], enabled: ["tip"], seed: seed)
      for ordinal in 0..<10 {
        engine.updateScore(type: "tip", ordinal: ordinal, to: .init(value: 0.5, timestamp: 1))
      }
      _ = engine.fill()
      var pending = engine.preparing
      let shown = Self.shows(&engine, count: 20, inDealOrder: true, pending: &pending)
      firsts[shown[0].ordinal] += 1
      let rounds = Self.rounds(shown, size: 10)
      if rounds[0] != rounds[1] { differentRounds += 1 }
    }
    let (chi, df) = (firsts.map { Double($0 - 20) * Double($0 - 20) / 20 }.reduce(0, +), 9)
    #expect(chi <= Statistics.chiSquareBound(df: df), "first cards \(firsts)")
    #expect(differentRounds >= 190, "\(differentRounds) of 200 runs changed order")
  }

  /// feed-logic.md's scenario: a 3-card type alone, four cards shown, then a type turned on:
  /// the queue is thrown away with the next round dealt ahead in it, and the round the user
  /// is in goes on from what was shown (a card of it came again before the third was seen).
  @Test(arguments: UInt64(1)...40)
  func turningATypeOnGoesOnWithTheRoundShown(seed: UInt64) {
    var (engine, pending) = Self.engine(
      [("q", 3), ("fact", 20)], enabled: ["q"], seed: seed)
    var shown = Self.shows(&engine, count: 4, pending: &pending)
    let effects = engine.setEnabled(["q", "fact"])
    pending = engine.preparing
    _ = effects
    shown += Self.shows(&engine, count: 12, pending: &pending)
    let q = shown.filter { $0.type == "q" }.map(\.ordinal)
    for round in stride(from: 0, to: q.count - 2, by: 3).map({ Array(q[$0..<$0 + 3]) }) {
      #expect(Set(round).count == 3, "seed \(seed): q shown \(q)")
    }
  }

  /// A card edited while the next round waits in the queue keeps its turn: no card of the
  /// round comes twice before the others.
  @Test(arguments: UInt64(1)...40)
  func aCardEditedInTheQueueKeepsItsTurn(seed: UInt64) {
    var (engine, pending) = Self.engine([("q", 3)], seed: seed)
    var shown = Self.shows(&engine, count: 2, pending: &pending)
    let edited = (engine.preparing + engine.ready.map(\.slot)).min { $0.id < $1.id }!
    let effects = engine.update(type: "q", ordinal: edited.ordinal)
    pending = engine.preparing
    _ = effects
    shown += Self.shows(&engine, count: 13, pending: &pending)
    let q = shown.map(\.ordinal)
    for round in stride(from: 0, to: q.count - 2, by: 3).map({ Array(q[$0..<$0 + 3]) }) {
      #expect(Set(round).count == 3, "seed \(seed): shown \(q)")
    }
  }

  /// A type every card of which failed (its server down) is set aside; when the source is back
  /// a new round starts and the feed goes on (it stayed "No cards can be shown").
  @Test func aTypeWhoseEveryCardFailedComesBackInANewRound() {
    var (engine, pending) = Self.engine([("server", 3)], seed: 4)
    while !pending.isEmpty {
      let slot = pending.removeFirst()
      for case .prepare(let next) in engine.failed(slot) { pending.append(next) }
    }
    #expect(engine.isUnavailable)
    #expect(engine.renewFailedTypes().count == 5)
    #expect(!engine.isUnavailable)
    pending = engine.preparing
    let shown = Self.shows(&engine, count: 3, pending: &pending)
    #expect(Set(shown.map(\.ordinal)) == [0, 1, 2])
    // A type with cards left is no failing type: nothing to renew.
    var (other, _) = Self.engine([("a", 3)], seed: 4)
    #expect(other.renewFailedTypes().isEmpty)
  }
}
