import Testing

@testable import FeedCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Random operations on a `FeedEngine` in any order (preparations ending well, failing or
/// arriving after their cancellation, cards shown in either order, settings changes, server
/// scores, ready cards laid out again), checked after every step by the `Referee`.
///
/// Each seed draws its own types (0 to 200 cards) and lookahead. A failure names its seed;
/// `CTFO_FEED_SEED=<seed> swift test --filter FeedEngineOperationsPropertyTests` replays it alone.
@Suite struct FeedEngineOperationsPropertyTests {
  static let seeds: [UInt64] = {
    if let replay = getenv("CTFO_FEED_SEED").flatMap({ UInt64(String(cString: $0)) }) {
      return [replay]
    }
    return Array(1...60)
  }()

  @Test(arguments: seeds)
  func anyOrderOfOperationsKeepsTheQueuesFullAndTheRulesOfTheSpec(seed: UInt64) {
    var rng = SeededGenerator(seed: seed &* 0x9E37_79B9)
    let sizes = [0, 1, 2, 3, 7, 8, 30, 200]
    let types = (0..<Int.random(in: 1...4, using: &rng)).map {
      ("type\($0)", sizes.randomElement(using: &rng)!)
    }
    let lookahead = [1, 2, 5, 8, 13].randomElement(using: &rng)!
    var referee = Referee(types: types, lookahead: lookahead, seed: seed)
    var log: [String] = []
    for _ in 0..<400 { log.append(Self.randomStep(&referee, types: types.map(\.0), using: &rng)) }
    #expect(
      referee.violations.isEmpty,
      """
      \(types), lookahead \(lookahead): \(referee.violations.prefix(3))
      last steps: \(log.suffix(8))
      """)
    #expect(referee.shown.count > 0 || types.allSatisfy { $0.1 == 0 }, "nothing was shown")
  }

  /// Performs one operation drawn at random and says which.
  static func randomStep(
    _ referee: inout Referee, types: [String], using rng: inout SeededGenerator
  ) -> String {
    let pending = referee.pending.count
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<30 where pending > 0:
      referee.complete(Int.random(in: 0..<pending, using: &rng))
      return "complete"
    case 30..<38 where pending > 0:
      referee.fail(Int.random(in: 0..<pending, using: &rng))
      return "fail"
    case 38..<58:
      return "show \(referee.show(inDealOrder: false).map(String.init(describing:)) ?? "nil")"
    case 58..<63:
      return "show in deal order \(referee.show(inDealOrder: true) != nil)"
    case 63..<68 where !referee.cancelled.isEmpty:
      let slot = referee.cancelled.randomElement(using: &rng)!
      referee.reportCancelled(slot, failing: Bool.random(using: &rng))
      return "late result for \(slot.id)"
    case 68..<76:
      let enabled = Set(types.filter { _ in Int.random(in: 0..<4, using: &rng) > 0 })
      referee.setEnabled(enabled)
      return "enable \(enabled.sorted())"
    case 76..<90:
      return score(&referee, types: types, using: &rng)
    case 90..<100 where !referee.engine.ready.isEmpty:
      let entry = referee.engine.ready.randomElement(using: &rng)!
      referee.relayOut(entry.slot)
      return "lay out \(entry.slot.id) again"
    default:
      return "nothing"
    }
  }

  /// A server score for a random card, sometimes older than the one held.
  static func score(
    _ referee: inout Referee, types: [String], using rng: inout SeededGenerator
  ) -> String {
    let type = types.randomElement(using: &rng)!
    let size = referee.sizes[type]!
    guard size > 0 else { return "nothing" }
    let ordinal = Int.random(in: 0..<size, using: &rng)
    referee.updateScore(
      type: type, ordinal: ordinal, value: Double.random(in: 0..<1, using: &rng),
      timestamp: Double(Int.random(in: 0..<1_000, using: &rng)))
    return "score \(type)-\(ordinal)"
  }
}
