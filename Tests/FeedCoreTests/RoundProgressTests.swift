import Testing

@testable import FeedCore

/// The home's rounds: what the store records of each card shown, and an
/// engine that starts from it.
@Suite struct RoundProgressTests {
  @Test func aTypesRoundStartsOverOnlyOnceEveryCardWasSeen() {
    var progress = RoundProgress<String>()
    let types: Set = ["fact", "word"]
    for id in ["f1", "f2", "f1"] { progress.shown(id, type: "fact", cards: 3, types: types) }
    #expect(progress.seen["fact"] == ["f1", "f2"], "f1 again (another process) is no new round")
    progress.shown("f3", type: "fact", cards: 3, types: types)
    #expect(progress.seen["fact"] == ["f1", "f2", "f3"])
    progress.shown("f2", type: "fact", cards: 3, types: types)
    #expect(progress.seen["fact"] == ["f2"])
  }

  @Test func theRoundOfTypesStartsOverOnceEveryTypeWasShown() {
    var progress = RoundProgress<String>()
    let types: Set = ["fact", "word", "joke"]
    progress.shown("f1", type: "fact", cards: 9, types: types)
    progress.shown("f2", type: "fact", cards: 9, types: types)
    progress.shown("w1", type: "word", cards: 9, types: types)
    #expect(progress.typesShown == ["fact", "word"])
    progress.shown("j1", type: "joke", cards: 9, types: types)
    progress.shown("w2", type: "word", cards: 9, types: types)
    #expect(progress.typesShown == ["word"])
  }

  @Test func anEngineResumedDealsNoSeenCardBeforeItsTypeRunsOutAndTheOtherTypesFirst() {
    let catalog = [(name: "a", cards: 10), (name: "b", cards: 10), (name: "c", cards: 10)]
    let seen: Set = [0, 2, 4, 6, 8]
    for seed in UInt64(0)..<20 {
      var engine = FeedEngine<FeedSlot>(
        types: catalog, enabled: ["a", "b", "c"], lookahead: 1, seed: seed,
        resuming: RoundProgress(seen: ["a": seen], typesShown: ["a"]))
      var dealt: [FeedSlot] = []
      var effects = engine.fill()
      // b and c end the resumed round, then 15 rounds of the three.
      for _ in 0..<47 {
        for case .prepare(let slot) in effects { engine.prepared(slot, slot) }
        let (slot, more) = engine.takeNext()
        dealt += slot.map { [$0] } ?? []
        effects = more
      }
      #expect(Set(dealt.prefix(2).map(\.type)) == ["b", "c"], "seed \(seed): \(dealt.prefix(3))")
      let a = dealt.filter { $0.type == "a" }.map(\.ordinal)
      #expect(Set(a.prefix(5)) == [1, 3, 5, 7, 9], "seed \(seed): \(a)")
      #expect(
        Set(a.dropFirst(5).prefix(10)) == Set(0..<10), "seed \(seed): the next round holds all")
    }
  }

  @Test func theSameSeedAndProgressDealTheSame() {
    let progress = RoundProgress<Int>(seen: ["a": [3, 1, 4], "b": [5, 9]], typesShown: ["b"])
    func deal() -> [FeedSlot] {
      var engine = FeedEngine<FeedSlot>(
        types: [(name: "a", cards: 8), (name: "b", cards: 12)], enabled: ["a", "b"], seed: 7,
        resuming: progress)
      var dealt: [FeedSlot] = []
      for case .prepare(let slot) in engine.fill() { dealt.append(slot) }
      return dealt
    }
    #expect(deal().map(\.ordinal) == deal().map(\.ordinal))
  }
}
