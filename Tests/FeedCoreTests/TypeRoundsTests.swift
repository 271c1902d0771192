import Testing

@testable import FeedCore

@Suite struct TypeRoundsTests {
  @Test func eachTypeOncePerRoundInRandomOrder() {
    var rng = SeededGenerator(seed: 4)
    var rounds = TypeRounds()
    let types = ["a", "b", "c", "d"]
    var orders = Set<[String]>()
    for _ in 0..<50 {
      let round = (0..<4).compactMap { _ in rounds.next(among: types, using: &rng) }
      #expect(round.sorted() == types)
      orders.insert(round)
    }
    #expect(orders.count > 10, "rounds are shuffled")
  }

  @Test func aTypeThatLeavesIsDroppedFromTheRound() {
    var rng = SeededGenerator(seed: 4)
    var rounds = TypeRounds()
    _ = rounds.next(among: ["a", "b", "c"], using: &rng)
    let rest = (0..<2).compactMap { _ in rounds.next(among: ["a", "b"], using: &rng) }
    #expect(!rest.contains("c"))
    do {
      let holds = rounds.next(among: [], using: &rng) == nil
      #expect(holds)
    }
  }
}
