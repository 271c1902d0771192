import Testing

@testable import FeedCore

@Suite struct ScoredPoolTests {
  @Test func startingOverDealsTheSameWhateverTheOrderOfTheSetsWalked() {
    // The same sets, walked in different orders (capacity changes a Set's order, as the hash
    // seed does from one process to the next).
    func deal(_ inFlight: Set<Int>, failing: [Int]) -> [Int] {
      var rng = SeededGenerator(seed: 11)
      var pool = ScoredPool(count: 40)
      for o in failing { pool.markFailed(o) }
      for (i, o) in [5, 9, 13, 21].enumerated() {
        pool.update(o, to: .init(value: 0.5, timestamp: Double(i)))
      }
      let firstCycle = (0..<(40 - failing.count)).compactMap { _ in pool.promote(using: &rng) }
      let next = (0..<30).compactMap { _ in pool.promote(avoiding: inFlight.sorted(), using: &rng) }
      return firstCycle + next
    }
    let ordinals = Array(0..<33)
    var wide = Set<Int>(minimumCapacity: 4_096)
    for o in ordinals.reversed() { wide.insert(o) }
    #expect(Array(Set(ordinals)) != Array(wide), "the two sets are walked in different orders")
    #expect(deal(Set(ordinals), failing: [1, 2, 3]) == deal(wide, failing: [1, 2, 3]))
  }

  @Test func everyCardIsPromotedOnceBeforeAnyReturns() {
    var rng = SeededGenerator(seed: 3)
    var pool = ScoredPool(count: 50)
    let first = (0..<50).compactMap { _ in pool.promote(using: &rng) }
    #expect(Set(first).count == 50)
    #expect(pool.unseenCount == 0)
    let second = (0..<50).compactMap { _ in pool.promote(using: &rng) }
    #expect(Set(second).count == 50, "all cards return to the pool once every card was seen")
  }

  @Test func theBestServerScoreIsPromotedFirst() {
    var rng = SeededGenerator(seed: 3)
    var pool = ScoredPool(count: 100)
    do {
      let holds = pool.update(42, to: .init(value: 2.0, timestamp: 1))
      #expect(holds)
    }
    do {
      let holds = pool.update(37, to: .init(value: 1.5, timestamp: 1))
      #expect(holds)
    }
    do {
      let holds = pool.promote(using: &rng) == 42
      #expect(holds)
    }
    do {
      let holds = pool.promote(using: &rng) == 37
      #expect(holds)
    }
  }

  @Test func anOlderScoreIsIgnoredAndANewerOneKept() {
    var rng = SeededGenerator(seed: 3)
    var pool = ScoredPool(count: 10)
    do {
      let holds = pool.update(1, to: .init(value: 5, timestamp: 10))
      #expect(holds)
    }
    do {
      let holds = !pool.update(1, to: .init(value: 9, timestamp: 5))
      #expect(holds, "older timestamp")
    }
    do {
      let holds = !pool.update(1, to: .init(value: 4, timestamp: 10))
      #expect(holds, "same timestamp, lower value")
    }
    do {
      let holds = pool.update(2, to: .init(value: 4, timestamp: 1))
      #expect(holds)
    }
    do {
      let holds = pool.update(1, to: .init(value: 3, timestamp: 11))
      #expect(holds, "newer, lower score")
    }
    do {
      let holds = pool.promote(using: &rng) == 2
      #expect(holds)
    }
    do {
      let holds = pool.promote(using: &rng) == 1
      #expect(holds)
    }
  }

  /// ctfo.md, "Personalization" 4: the same updates in any order, some of them twice, give
  /// the same promotion order; equal timestamps are settled by the value, not by arrival.
  /// Cards with no score are dealt at random among them: each shows as -1.
  @Test func theSameScoresInAnyOrderPromoteTheSameCards() {
    var rng = SeededGenerator(seed: 41)
    for _ in 0..<200 {
      let count = Int.random(in: 2...12, using: &rng)
      let updates = (0..<Int.random(in: 1...30, using: &rng)).map { _ in
        (
          Int.random(in: 0..<count, using: &rng),
          ScoredPool.Score(
            value: Double(Int.random(in: 0...4, using: &rng)),
            timestamp: Double(Int.random(in: 0...3, using: &rng)))
        )
      }
      func order(_ updates: [(Int, ScoredPool.Score)]) -> [Int?] {
        var pool = ScoredPool(count: count)
        for (ordinal, score) in updates { pool.update(ordinal, to: score) }
        var draw = SeededGenerator(seed: 7)
        let scored = Set(updates.map(\.0))
        return (0..<count).map { _ in
          pool.promote(using: &draw).map { scored.contains($0) ? $0 : -1 }
        }
      }
      let expected = order(updates)
      let shuffled = (updates + updates.prefix(Int.random(in: 0...updates.count, using: &rng)))
        .shuffled(using: &rng)
      #expect(order(shuffled) == expected, "\(updates) then \(shuffled)")
    }
  }

  @Test func aScoreForASeenCardIsIgnored() {
    var rng = SeededGenerator(seed: 3)
    var pool = ScoredPool(count: 3)
    let seen = pool.promote(using: &rng)!
    do {
      let holds = !pool.update(seen, to: .init(value: 100, timestamp: 1))
      #expect(holds)
    }
    #expect(!pool.isUnseen(seen))
    let rest = [pool.promote(using: &rng), pool.promote(using: &rng)]
    #expect(!rest.contains(seen))
  }

  @Test func failedCardsNeverReturn() {
    var rng = SeededGenerator(seed: 9)
    var pool = ScoredPool(count: 5)
    let bad = pool.promote(using: &rng)!
    pool.markFailed(bad)
    for _ in 0..<40 { #expect(pool.promote(using: &rng) != bad) }
    #expect(pool.availableCount == 4)
  }

  @Test func aPoolWhoseCardsAllFailedPromotesNothing() {
    var rng = SeededGenerator(seed: 9)
    var pool = ScoredPool(count: 2)
    for _ in 0..<2 { pool.markFailed(pool.promote(using: &rng)!) }
    do {
      let holds = pool.promote(using: &rng) == nil
      #expect(holds)
    }
    #expect(pool.availableCount == 0)
  }

  @Test func whenEveryUnseenCardIsQueuedTheOneDealtLongestAgoComes() {
    var rng = SeededGenerator(seed: 5)
    var pool = ScoredPool(count: 2)
    let round = (0..<2).compactMap { _ in pool.promote(using: &rng) }
    #expect(pool.promote(avoiding: round, using: &rng) == round[0])
    #expect(pool.promote(avoiding: round + [round[0]], using: &rng) == round[1])
    #expect(pool.promote(avoiding: [round[1], round[0]], using: &rng) == round[1])
  }

  @Test func aPutBackCardIsUnseenAgain() {
    var rng = SeededGenerator(seed: 5)
    var pool = ScoredPool(count: 3)
    let card = pool.promote(using: &rng)!
    pool.putBack(card)
    #expect(pool.isUnseen(card))
    #expect(pool.unseenCount == 3)
  }

  @Test func withoutScoresTheChoiceIsUniform() {
    // The first card promoted from a fresh 10-card pool, over 20,000 pools: each about 2,000.
    var rng = SeededGenerator(seed: 11)
    var counts = [Int](repeating: 0, count: 10)
    for _ in 0..<20_000 {
      var pool = ScoredPool(count: 10)
      counts[pool.promote(using: &rng)!] += 1
    }
    for c in counts { #expect((1_800...2_200).contains(c), "counts: \(counts)") }
  }

  @Test func randomScoresInterleaveWithServerScores() {
    // A server score of 0.5 among 9 unscored cards: it beats the best random score with
    // probability 0.5^9, and is promoted in the middle of the cycle on average.
    var rng = SeededGenerator(seed: 2)
    var positions = 0
    for _ in 0..<2_000 {
      var pool = ScoredPool(count: 10)
      pool.update(0, to: .init(value: 0.5, timestamp: 1))
      let order = (0..<10).compactMap { _ in pool.promote(using: &rng) }
      positions += order.firstIndex(of: 0)!
    }
    let mean = Double(positions) / 2_000
    #expect((4.2...4.8).contains(mean), "mean position \(mean), expected 4.5")
  }
}
