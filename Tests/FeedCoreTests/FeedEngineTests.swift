import Testing

@testable import FeedCore

/// Drives an engine as its runner would: prepares slots on demand, in any order.
struct EngineDriver {
  var engine: FeedEngine<FeedSlot>
  /// Slots whose preparation was started and not yet reported.
  var pending: [FeedSlot] = []
  var cancelled: [FeedSlot] = []

  init(types: [(String, Int)], enabled: Set<String>? = nil, lookahead: Int = 5, seed: UInt64 = 1) {
    engine = FeedEngine(
      types: types.map { (name: $0.0, cards: $0.1) }, enabled: enabled ?? Set(types.map(\.0)),
      lookahead: lookahead, seed: seed)
    apply(engine.fill())
  }

  mutating func apply(_ effects: [FeedEffect]) {
    for effect in effects {
      switch effect {
      case .prepare(let slot): pending.append(slot)
      case .cancel(let slot):
        cancelled.append(slot)
        pending.removeAll { $0.id == slot.id }
      }
    }
  }

  /// Completes every pending preparation successfully, oldest first.
  mutating func completeAll() {
    while !pending.isEmpty { engine.prepared(pending[0], pending.removeFirst()) }
  }

  /// Shows the next card, completing preparations as needed.
  mutating func show() -> FeedSlot? {
    if engine.ready.isEmpty { completeAll() }
    let (card, effects) = engine.takeNext()
    apply(effects)
    return card
  }
}

@Suite struct FeedEngineTests {
  @Test func keepsLookaheadCardsInPreparation() {
    let d = EngineDriver(types: [("a", 10), ("b", 10)], lookahead: 5)
    #expect(d.pending.count == 5)
    #expect(d.engine.preparing.count == 5)
  }

  @Test func aCardIsReadyTheMomentItsPreparationEndsWhateverItsPlace() {
    var d = EngineDriver(types: [("a", 10)], lookahead: 3)
    let third = d.pending[2]
    d.engine.prepared(third, third)
    #expect(d.engine.ready.map(\.slot) == [third])
    let (shown, _) = d.engine.takeNext()
    #expect(shown == third)
  }

  /// A type of four cards with a lookahead of five: the fifth card dealt is the next round's
  /// first, the same card as one of this round's. Ready first, it still waits for this
  /// round's cards that are ready: the card just swiped never comes straight back.
  @Test func theReadyCardDealtFirstShowsFirst() {
    var d = EngineDriver(types: [("a", 4)], lookahead: 5)
    let dealt = d.pending
    d.pending.removeAll()
    // The first card shows; then the others get ready last dealt first.
    d.engine.prepared(dealt[0], dealt[0])
    var shown = [d.engine.takeNext().payload!]
    for slot in dealt.dropFirst().reversed() { d.engine.prepared(slot, slot) }
    for _ in 0..<3 { shown.append(d.engine.takeNext().payload!) }
    #expect(shown.map(\.id) == dealt.prefix(4).map(\.id))
    #expect(Set(shown.map(\.ordinal)).count == 4, "\(shown)")
  }

  @Test func showingACardStartsThePreparationOfOneMore() {
    var d = EngineDriver(types: [("a", 10)], lookahead: 5)
    d.completeAll()
    let (_, effects) = d.engine.takeNext()
    #expect(effects.count == 1)
    guard case .prepare = effects.first else {
      Issue.record("expected a prepare effect, got \(effects)")
      return
    }
  }

  @Test func anEmptyReadyQueueGivesThePlaceholderThenTheFirstCardToBeReady() {
    var d = EngineDriver(types: [("a", 10)], lookahead: 2)
    let (none, noEffects) = d.engine.takeNext()
    #expect(none == nil)
    #expect(noEffects.isEmpty, "the queue is still full: nothing new to prepare")
    let second = d.pending[1]
    d.engine.prepared(second, second)
    #expect(d.engine.takeNext().payload == second)
  }

  @Test func noCardRepeatsWithinATypeBeforeItsPoolRunsOut() {
    var d = EngineDriver(types: [("a", 40), ("b", 25), ("c", 7)])
    var shown: [String: [Int]] = [:]
    for _ in 0..<600 {
      let slot = d.show()!
      shown[slot.type, default: []].append(slot.ordinal)
    }
    for (type, count) in [("a", 40), ("b", 25), ("c", 7)] {
      let ordinals = shown[type]!
      #expect(Set(ordinals.prefix(count)).count == count, "\(type): first cycle repeats")
      #expect(Set(ordinals.prefix(count)) == Set(0..<count))
    }
  }

  @Test func typesGetEqualSharesEvenWithUnequalDecks() {
    var d = EngineDriver(types: [("a", 1000), ("b", 30), ("c", 3), ("d", 200)], seed: 8)
    var counts: [String: Int] = [:]
    for _ in 0..<4_000 { counts[d.show()!.type, default: 0] += 1 }
    for type in ["a", "b", "c", "d"] { #expect(abs(counts[type]! - 1_000) <= 8, "\(counts)") }
  }

  @Test func aFailedCardIsSeenNeverRetriedAndItsSlotGoesToTheSameType() {
    var d = EngineDriver(types: [("a", 10), ("b", 10)], lookahead: 4)
    let bad = d.pending.removeFirst()
    let effects = d.engine.failed(bad)
    guard case .prepare(let replacement) = effects.first, effects.count == 1 else {
      Issue.record("expected one replacement, got \(effects)")
      return
    }
    #expect(replacement.type == bad.type)
    #expect(replacement.ordinal != bad.ordinal)
    d.apply(effects)
    let shownBad = (0..<200).compactMap { _ in d.show() }.filter {
      $0.type == bad.type && $0.ordinal == bad.ordinal
    }
    #expect(shownBad.isEmpty)
  }

  @Test func aTypeWhoseEveryCardFailsIsSetAsideAndTheFeedGoesOn() {
    var d = EngineDriver(types: [("good", 5), ("bad", 3)], lookahead: 3)
    var shown: [FeedSlot] = []
    for _ in 0..<60 {
      while let slot = d.pending.first {
        d.pending.removeFirst()
        if slot.type == "bad" {
          d.apply(d.engine.failed(slot))
        } else {
          d.engine.prepared(slot, slot)
        }
      }
      let (card, effects) = d.engine.takeNext()
      d.apply(effects)
      if let card { shown.append(card) }
    }
    #expect(shown.count == 60)
    #expect(shown.allSatisfy { $0.type == "good" })
    #expect(d.engine.standings.first { $0.name == "bad" }!.failing)
    #expect(!d.engine.standings.first { $0.name == "good" }!.failing)
  }

  @Test func whenNothingCanBePreparedTheFeedSaysSo() {
    var d = EngineDriver(types: [("bad", 2)], lookahead: 2)
    while let slot = d.pending.first {
      d.pending.removeFirst()
      d.apply(d.engine.failed(slot))
    }
    #expect(d.engine.isUnavailable)
    #expect(d.engine.takeNext().payload == nil)
    let onlyEmpty = EngineDriver(types: [("empty", 0), ("a", 1)], enabled: ["empty"])
    #expect(onlyEmpty.engine.isUnavailable)
  }

  @Test func disablingATypeRemovesItsCardsFromBothQueuesAndRefills() {
    var d = EngineDriver(types: [("a", 10), ("b", 10)], lookahead: 6, seed: 3)
    d.engine.prepared(d.pending[0], d.pending[0])
    d.engine.prepared(d.pending[1], d.pending[1])
    d.pending.removeFirst(2)
    d.apply(d.engine.setEnabled(["a"]))
    #expect(d.engine.preparing.allSatisfy { $0.type == "a" })
    #expect(d.engine.ready.allSatisfy { $0.slot.type == "a" })
    #expect(d.cancelled.allSatisfy { $0.type == "b" } && !d.cancelled.isEmpty)
    #expect(d.engine.preparing.count + d.engine.ready.count == 6)
    for _ in 0..<50 {
      let shown = d.show()
      #expect(shown?.type == "a")
    }
  }

  @Test func aResultForACancelledPreparationNeverReachesTheReadyQueue() {
    var d = EngineDriver(types: [("a", 10), ("b", 10)], lookahead: 4, seed: 3)
    let b = d.engine.preparing.first { $0.type == "b" }!
    d.apply(d.engine.setEnabled(["a"]))
    d.engine.prepared(b, b)
    #expect(!d.engine.ready.contains { $0.slot.id == b.id })
    do {
      let holds = d.engine.failed(b).isEmpty
      #expect(holds)
    }
  }

  @Test func reEnablingATypeThrowsBothQueuesAwayAndStartsOver() {
    var d = EngineDriver(types: [("a", 10), ("b", 10)], enabled: ["a"], lookahead: 4)
    d.engine.prepared(d.pending[0], d.pending[0])
    let before = Set(d.engine.preparing.map(\.id) + d.engine.ready.map(\.slot.id))
    d.apply(d.engine.setEnabled(["a", "b"]))
    let after = Set(d.engine.preparing.map(\.id) + d.engine.ready.map(\.slot.id))
    #expect(before.isDisjoint(with: after))
    #expect(d.engine.ready.isEmpty)
    #expect(d.cancelled.count == 3)
    let types = d.engine.preparing.prefix(2).map(\.type)
    #expect(Set(types) == ["a", "b"], "a fresh round deals both types first")
  }

  @Test func cardsThatLeaveTheQueueUnshownReturnToThePool() {
    var d = EngineDriver(types: [("a", 3), ("b", 3)], lookahead: 4, seed: 2)
    let dropped = d.engine.preparing.filter { $0.type == "b" }.map(\.ordinal)
    d.apply(d.engine.setEnabled(["a"]))
    d.apply(d.engine.setEnabled(["a", "b"]))
    var firstB: [Int] = []
    while firstB.count < 3 {
      let s = d.show()!
      if s.type == "b" { firstB.append(s.ordinal) }
    }
    #expect(Set(firstB) == [0, 1, 2], "dropped \(dropped) came back")
  }

  @Test func theSameSeedDealsTheSameFeed() {
    var a = EngineDriver(types: [("a", 50), ("b", 50)], seed: 99)
    var b = EngineDriver(types: [("a", 50), ("b", 50)], seed: 99)
    let fa = (0..<100).map { _ in a.show()! }
    let fb = (0..<100).map { _ in b.show()! }
    #expect(fa == fb)
  }

  @Test func scoreUpdatesReachTheTypesPool() {
    var d = EngineDriver(types: [("a", 100)], lookahead: 1)
    let first = d.pending[0]
    do {
      let holds = d.engine.updateScore(type: "a", ordinal: 77, to: .init(value: 9, timestamp: 1))
      #expect(holds)
    }
    do {
      let holds = !d.engine.updateScore(
        type: "a", ordinal: first.ordinal, to: .init(value: 9, timestamp: 1))
      #expect(holds)
    }
    d.completeAll()
    d.apply(d.engine.takeNext().effects)
    #expect(d.pending.last?.ordinal == 77)
  }

  @Test func inDealOrderTheOldestCardDealtComesFirstWhateverFinishedFirst() {
    var d = EngineDriver(types: [("a", 10)], lookahead: 3)
    let (first, second) = (d.pending[0], d.pending[1])
    d.engine.prepared(second, second)
    #expect(!d.engine.hasNext(inDealOrder: true))
    #expect(d.engine.takeNext(inDealOrder: true).payload == nil)
    d.engine.prepared(first, first)
    #expect(d.engine.takeNext(inDealOrder: true).payload == first)
    #expect(d.engine.takeNext(inDealOrder: true).payload == second)
  }
}

/// A small type's card does not come again while it waits in the queue.
@Suite struct SmallTypeRepeatTests {
  /// Types of 2 and 3 cards with the default lookahead of 5, shown in the order dealt: no
  /// card of a type follows itself among that type's cards, over many seeds.
  @Test(arguments: [[("pair", 2), ("three", 3)], [("pair", 2)], [("three", 3)]])
  func noCardOfASmallTypeComesTwiceInARow(_ types: [(String, Int)]) {
    for seed in UInt64(1)...40 {
      var referee = Referee(types: types, lookahead: 5, seed: seed)
      referee.showInDealOrder(count: 120)
      for (type, _) in types {
        let shown = referee.shown.filter { $0.type == type }.map(\.ordinal)
        let repeats = zip(shown, shown.dropFirst()).filter { $0 == $1 }.count
        #expect(repeats == 0, "seed \(seed): \(type) shown \(shown.prefix(20))")
      }
      #expect(referee.violations.isEmpty, "\(referee.violations.prefix(3))")
    }
  }
}
