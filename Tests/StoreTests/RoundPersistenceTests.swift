import FeedCore
import SQL
import TestFixtures
import Testing

@testable import Store

/// The rounds belong to the home, not the process: each run opens the
/// database afresh, deals from where the last left off (`StateStore.roundProgress`), shows one
/// card and records it with its history row, as `ctfo next` does.
@Suite struct RoundPersistenceTests {
  private let sizes = [("x", 7), ("y", 30), ("z", 3)]

  /// The card one run of `ctfo next -n 1` shows: a new database connection, the engine resumed
  /// from the store, eight cards dealt, the first in deal order shown and recorded.
  private func oneRun(_ home: TestHome, deck: String, seed: UInt64) throws -> Card {
    try home.reopen()
    _ = try home.index.sync(decks: [deck])
    let catalog = try home.index.catalog()
    var engine = FeedEngine<FeedSlot>(
      types: catalog.map { ($0.type.name, $0.cards) }, enabled: Set(catalog.map(\.type.name)),
      lookahead: 8, seed: seed, resuming: try home.state.roundProgress())
    for case .prepare(let slot) in engine.fill() { engine.prepared(slot, slot) }
    let slot = try #require(engine.takeNext(inDealOrder: true).payload)
    let card = try #require(try home.index.reader().card(type: slot.type, ordinal: slot.ordinal))
    _ = try home.state.appendShown([card], time: Double(seed))
    return card
  }

  /// A launch reads its rounds from the round's rows, each card found by id: not by walking
  /// every card of the index, whose cost grows with the decks (a million cards) however small
  /// the round.
  @Test func theRoundsAreReadFromTheRoundsRowsNotFromEveryCard() throws {
    let home = try TestHome()
    _ = try home.index.sync(decks: [try home.deck("d.jsonl", [cardLine("x0", type: "x")])])
    let db = try Connection(
      path: home.url.appendingPathComponent("state.sqlite").path, role: .readOnly)
    let plan = try db.rows("EXPLAIN QUERY PLAN " + StateStore.roundCardsQuery) {
      $0.text(3) ?? ""
    }
    #expect(plan.first?.hasPrefix("SCAN round_cards") == true, "\(plan)")
    #expect(!plan.contains { $0.hasPrefix("SCAN cards") }, "\(plan)")
  }

  @Test func everyRunGoesOnWithTheHomesRoundsOfCardsAndOfTypes() throws {
    let home = try TestHome()
    let lines = sizes.flatMap { type, count in
      (0..<count).map { cardLine("\(type)\($0)", type: type) }
    }
    let deck = try home.deck("d.jsonl", lines)
    var shown: [Card] = []
    var counts: [String: Int] = [:]
    for run in 0..<180 {
      let card = try oneRun(home, deck: deck, seed: UInt64(run))
      shown.append(card)
      counts[card.type, default: 0] += 1
      // The round of types goes on too: after every run, no type is more than one ahead.
      #expect(
        counts.values.max()! - (sizes.count == counts.count ? counts.values.min()! : 0) <= 1,
        "run \(run): \(counts)")
    }
    for (type, size) in sizes {
      let ids = shown.filter { $0.type == type }.map(\.id)
      #expect(ids.count == 60)
      for start in stride(from: 0, to: ids.count - size + 1, by: size) {
        #expect(
          Set(ids[start..<start + size]).count == size,
          "\(type): a card came back before its type ran out: \(ids)")
      }
    }
  }

  /// A deck edited between runs: a card gone from the index no longer counts as seen, and its
  /// type's round still ends once every card left was shown.
  @Test func aCardGoneFromTheDecksLeavesTheRound() throws {
    let home = try TestHome()
    let deck = try home.deck("d.jsonl", (0..<4).map { cardLine("f\($0)") })
    var first: [String] = []
    for run in 0..<2 { first.append(try oneRun(home, deck: deck, seed: UInt64(run)).id) }
    let kept = (0..<4).map { "f\($0)" }.filter { $0 != first[0] }
    try home.deck("d.jsonl", kept.map { cardLine($0) })
    try home.setModified(deck, 1_000)
    var rest: [String] = []
    for run in 2..<4 { rest.append(try oneRun(home, deck: deck, seed: UInt64(run)).id) }
    #expect(Set([first[1]] + rest) == Set(kept), "\(first) then \(rest)")
  }
}
