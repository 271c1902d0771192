import Testing

@testable import FeedCore

@Suite struct LazyShuffleTests {
  @Test func drawsEveryOrdinalExactlyOnce() {
    var rng = SeededGenerator(seed: 7)
    var shuffle = LazyShuffle(count: 1000)
    var drawn: [Int32] = []
    while let o = shuffle.draw(using: &rng) { drawn.append(o) }
    #expect(drawn.count == 1000)
    #expect(Set(drawn) == Set(0..<1000))
    #expect(drawn != Array(0..<1000))
  }

  @Test func removedOrdinalsAreNeverDrawnAndPutBackOnesAre() {
    var rng = SeededGenerator(seed: 1)
    var shuffle = LazyShuffle(count: 10)
    do {
      let holds = shuffle.remove(3)
      #expect(holds)
    }
    do {
      let holds = !shuffle.remove(3)
      #expect(holds)
    }
    #expect(!shuffle.contains(3))
    var drawn = Set<Int32>()
    while let o = shuffle.draw(using: &rng) { drawn.insert(o) }
    #expect(drawn == Set(0..<10).subtracting([3]))
    do {
      let holds = shuffle.putBack(3)
      #expect(holds)
    }
    do {
      let holds = !shuffle.putBack(3)
      #expect(holds)
    }
    do {
      let holds = shuffle.draw(using: &rng) == 3
      #expect(holds)
    }
    do {
      let holds = shuffle.draw(using: &rng) == nil
      #expect(holds)
    }
  }
}
