import Synchronization
import Testing

@testable import FeedCore

/// feed-logic.md, "Card Selection", as properties over many rounds: types of 1 to 200 cards,
/// lookaheads of 1, 5 and 8, alone and mixed with other types. Cards are shown in deal order,
/// the order `ctfo next` prints them.
@Suite struct CardSelectionPropertyTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let cards: Int
    let lookahead: Int
    let mixed: Bool

    /// The type under test, with a 2-card and a 500-card type when mixed.
    var types: [(String, Int)] { [("t", cards)] + (mixed ? [("pair", 2), ("many", 500)] : []) }
    var seed: UInt64 { UInt64(cards * 100 + lookahead * 2 + (mixed ? 1 : 0)) }
    var testDescription: String {
      "\(cards) cards, lookahead \(lookahead)\(mixed ? ", mixed" : ""), seed \(seed)"
    }
  }

  static let cases = [1, 2, 3, 7, 8, 200].flatMap { cards in
    [1, 5, 8].flatMap { lookahead in
      [false, true].map { Case(cards: cards, lookahead: lookahead, mixed: $0) }
    }
  }

  /// Cards dealt per type: 10 rounds of 200 cards, 250 rounds of 8.
  static let dealsPerType = 2_000

  /// What a case dealt: each type's cards in deal order, and the referee's findings.
  struct Dealt: Sendable {
    var ordinals: [String: [Int]]
    var violations: [String]

    /// The type's complete rounds: its deals cut into runs of `size`.
    func rounds(_ type: String, size: Int) -> [[Int]] {
      let all = ordinals[type]!
      return stride(from: 0, through: all.count - size, by: size).map { Array(all[$0..<$0 + size]) }
    }
  }

  private static let dealt = Mutex<[String: Dealt]>([:])

  /// Deals a case's feed once; the tests below share the result.
  static func deal(_ c: Case) -> Dealt {
    if let done = dealt.withLock({ $0[c.testDescription] }) { return done }
    var referee = Referee(types: c.types, lookahead: c.lookahead, seed: c.seed)
    referee.showInDealOrder(count: dealsPerType * c.types.count)
    let ordinals = Dictionary(grouping: referee.deals, by: \.type).mapValues { $0.map(\.ordinal) }
    let result = Dealt(
      ordinals: ordinals, violations: referee.violations)
    dealt.withLock { $0[c.testDescription] = result }
    return result
  }

  @Test(arguments: cases)
  func everyRoundIsAPermutationOfAllTheTypesCards(_ c: Case) {
    let dealt = Self.deal(c)
    for (type, size) in c.types {
      let rounds = dealt.rounds(type, size: size)
      #expect(
        rounds.count >= Self.dealsPerType / size, "\(c): \(type) dealt \(rounds.count) rounds")
      for (i, round) in rounds.enumerated() where round.sorted() != Array(0..<size) {
        Issue.record("\(c): \(type) round \(i) is \(round.prefix(12)), not a permutation")
        break
      }
    }
  }

  @Test(arguments: cases)
  func everyCardOfATypeIsDealtEquallyOften(_ c: Case) {
    let dealt = Self.deal(c)
    for (type, size) in c.types {
      var counts = [Int](repeating: 0, count: size)
      for ordinal in dealt.ordinals[type]! { counts[ordinal] += 1 }
      #expect(counts.max()! - counts.min()! <= 1, "\(c): \(type) counts \(counts.prefix(12))")
    }
  }

  @Test(arguments: cases.filter(\.mixed))
  func everyTypeIsDealtEquallyOftenWhateverItsSize(_ c: Case) {
    let counts = Self.deal(c).ordinals.values.map(\.count)
    #expect(counts.max()! - counts.min()! <= 1, "\(c): deals per type \(counts)")
  }

  /// Rounds of a type larger than the lookahead are fresh random orders. Every card is as
  /// likely at every place of a round: a chi-square test of the card-by-position table, on
  /// every other round (a round leans on the one before when cards still queued are passed
  /// over). And a round of three cards or more repeats the one before with probability at most
  /// 1/2, a type smaller than the queue too: when every card left is queued, one comes at
  /// random (they once came oldest first, every round in one order).
  @Test(arguments: cases)
  func roundsAreFreshRandomOrders(_ c: Case) {
    let dealt = Self.deal(c)
    for (type, size) in c.types where size >= 3 {
      let rounds = dealt.rounds(type, size: size)
      if size > c.lookahead {
        let everyOther = stride(from: 0, to: rounds.count, by: 2).map { rounds[$0] }
        let (chi, df) = Statistics.positionChiSquare(rounds: everyOther, cards: size)
        #expect(
          chi <= Statistics.chiSquareBound(df: df),
          "\(c): \(type) card-by-position chi-square \(chi), df \(df), \(rounds.prefix(3))")
      }
      let repeats = zip(rounds, rounds.dropFirst()).filter { $0 == $1 }.count
      #expect(
        Double(repeats) <= Statistics.binomialBound(trials: rounds.count - 1, p: 0.5),
        "\(c): \(type) repeats the round before \(repeats) times in \(rounds.count)")
    }
  }

  /// The referee finds nothing, and a type of two cards or more never deals one card twice in
  /// a row (a new round does not begin with the card that ended the last).
  @Test(arguments: cases)
  func noCardComesTwiceInARow(_ c: Case) {
    let dealt = Self.deal(c)
    #expect(dealt.violations.isEmpty, "\(dealt.violations.prefix(3))")
    for (type, size) in c.types where size >= 2 {
      let ordinals = dealt.ordinals[type]!
      let twice = zip(ordinals, ordinals.dropFirst()).filter { $0 == $1 }.count
      #expect(twice == 0, "\(c): \(type) dealt a card twice in a row \(twice) times")
    }
  }
}
