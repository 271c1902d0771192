import FeedCore
import Foundation
import Store
import TestFixtures
import Testing

/// Random deck edits checked against a model: after every sync, the index holds exactly the
/// winner of every id (latest deck in the list, latest line), numbered densely per type.
@Suite struct DeckIndexModelTests {
  /// A seeded linear congruential generator: the same seed gives the same edits.
  private struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
    mutating func pick(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
  }

  private typealias Deck = [(id: String, type: String, body: String)]

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomEditsKeepTheIndexEqualToTheModel(seed: UInt64) throws {
    let home = try TestHome()
    var random = Generator(state: seed)
    let names = ["a", "b", "c", "d"]
    var decks: [String: Deck] = [:]
    var order = names
    var stamp = 1_000_000.0
    for step in 0..<25 {
      let name = names[random.pick(names.count)]
      switch random.pick(5) {
      case 0:
        decks[name] = nil
        try? FileManager.default.removeItem(atPath: home.url.appendingPathComponent(name).path)
      case 1:
        order.shuffle(using: &random)
      default:
        let deck: Deck = (0..<random.pick(8)).map { _ in
          ("id\(random.pick(12))", ["x", "y", "z"][random.pick(3)], "s\(step)-\(random.pick(99))")
        }
        decks[name] = deck
        let path = try home.deck(name, deck.map { cardLine($0.id, type: $0.type, body: $0.body) })
        stamp += 1
        try home.setModified(path, stamp)
      }
      let listed = order.filter { _ in random.pick(4) > 0 }
      _ = try home.index.sync(decks: listed.map { home.url.appendingPathComponent($0).path })
      try expectIndex(home.index, equals: winners(listed.compactMap { decks[$0] }))
    }
  }

  private func winners(_ decks: [Deck]) -> [String: (type: String, body: String)] {
    var live: [String: (type: String, body: String)] = [:]
    for card in decks.joined() { live[card.id] = (card.type, card.body) }
    return live
  }

  private func expectIndex(
    _ index: DeckIndex, equals model: [String: (type: String, body: String)]
  ) throws {
    var seen: [String: String] = [:]
    let reader = index.reader()
    for entry in try index.catalog() {
      for ordinal in 0..<entry.cards {
        let card = try #require(try reader.card(type: entry.type.name, ordinal: ordinal))
        #expect(card.type == entry.type.name)
        #expect(seen.updateValue(card.body, forKey: card.id) == nil)
      }
    }
    #expect(seen == model.mapValues(\.body))
    for (id, card) in model { #expect(try index.card(id: id)?.type == card.type) }
  }
}
