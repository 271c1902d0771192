import Testing

@testable import FeedCore

/// feed-logic.md's equal shares of types, where the other tests do not look: with failing
/// cards, and across a type turned off and back on.
@Suite struct TypeBalanceTests {
  /// "Each type of card should be shown in equal frequency" also while cards fail: a failed
  /// card's slot goes to its own type ("move on to the next random card"), so a type half of
  /// whose cards fail is shown as often as the others. (If the slot went to the next type in
  /// the round instead, "half" would lose about 100 of its 500 shows.)
  @Test func typesAreShownEquallyOftenWhileHalfOfOneTypesCardsFail() {
    var d = EngineDriver(types: [("half", 200), ("whole", 200), ("small", 3)], seed: 5)
    var counts: [String: Int] = [:]
    var failures = 0
    while counts.values.reduce(0, +) < 1_500 {
      while let slot = d.pending.first {
        d.pending.removeFirst()
        if slot.type == "half" && slot.ordinal % 2 == 0 {
          failures += 1
          d.apply(d.engine.failed(slot))
        } else {
          d.engine.prepared(slot, slot)
        }
      }
      let (card, effects) = d.engine.takeNext()
      d.apply(effects)
      if let card { counts[card.type, default: 0] += 1 }
    }
    #expect(failures == 100, "every even card of 'half' failed once, and only once")
    for type in ["half", "whole", "small"] {
      #expect(abs(counts[type, default: 0] - 500) <= 3, "\(counts)")
    }
  }

  /// "throw the whole queue away and start over so that the balance of card types remains
  /// equal": from the moment a type is turned back on, the cards shown count each type equally,
  /// within one, after every show. (Cards of the old queue, dealt without the type, would put
  /// the others ahead by up to the lookahead.)
  @Test(arguments: [1, 5, 8])
  func afterATypeIsTurnedBackOnEveryPrefixOfTheFeedIsBalanced(lookahead: Int) {
    var d = EngineDriver(types: [("a", 30), ("b", 30), ("c", 30)], lookahead: lookahead, seed: 9)
    for _ in 0..<7 { _ = d.show() }
    d.apply(d.engine.setEnabled(["a", "b"]))
    for _ in 0..<7 { _ = d.show() }
    d.apply(d.engine.setEnabled(["a", "b", "c"]))
    var counts = ["a": 0, "b": 0, "c": 0]
    for shown in 1...300 {
      guard let card = d.show() else {
        Issue.record("no card at show \(shown)")
        return
      }
      counts[card.type, default: 0] += 1
      let spread = counts.values.max()! - counts.values.min()!
      if spread > 1 {
        Issue.record("after \(shown) shows since c came back: \(counts)")
        return
      }
    }
  }
}
