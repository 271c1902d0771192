import CTFOWire
import Testing

@testable import CTFOServer

/// The personaliser on the stores: several processes on one store share its evidence and its
/// queue; what one learns another ranks with.
@Suite(WithPostgres()) struct PersonalisedStoreTests {
  static func reaction(_ id: String, _ name: String, card: String, at time: Int64)
    -> ReceivedEvent
  {
    var event = ReceivedEvent(
      sink: "ctfo", insertID: id, name: name, distinctID: "x", time: time, payload: "{}")
    event.cardID = card
    return event
  }

  @Test(arguments: StoreKind.allCases) func whatOneProcessLearnsAnotherRanksWith(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStores(2) { stores in
      let (one, two) = (stores[0], stores[1])
      let scoring = try #require(two as? any ScoringStore)
      _ = try await one.load(
        cards: (1...6).map { Wire.Card(id: "c\($0)", type: "t", title: "Card \($0)", body: "b") },
        types: [])
      // Twenty readers through process one: c1 and c2 loved together, c3 loved by few.
      for i in 0..<20 {
        let install = "r\(i)"
        _ = try await one.issueToken(hash: [UInt8(i)], installId: install, expiresAt: .max)
        let loved = i % 2 == 0
        try await one.record(
          events: [
            Self.reaction("a", loved ? "CTFO" : "TIFB", card: "c1", at: 1_000),
            Self.reaction("b", loved ? "CTFO" : "TIFB", card: "c2", at: 1_001),
            Self.reaction("c", i < 3 ? "CTFO" : "TIFB", card: "c3", at: 1_002),
          ], install: install, at: 2_000)
      }
      _ = try await one.issueToken(hash: [200], installId: "me", expiresAt: .max)
      try await one.record(
        events: [Self.reaction("m", "CTFO", card: "c1", at: 3_000)], install: "me", at: 3_000)
      // Process two makes everyone's scores, each install once.
      var made = 0
      while case let n = try await scoring.rescorePending(limit: 7, at: 4_000), n > 0 { made += n }
      #expect(made == 21)
      let scores = try await one.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "me")
        .scores
      let byCard = Dictionary(uniqueKeysWithValues: scores.map { ($0.cardId, $0) })
      #expect(Set(byCard.keys) == ["c2", "c3", "c4", "c5", "c6"])
      #expect(byCard["c2"]?.reason == "readers who loved \u{201C}Card 1\u{201D} loved this")
      #expect(byCard["c3"]?.reason == "loved by 15 % of 20 readers")
      #expect(byCard["c4"]?.reason == "new: few have seen it yet")
      #expect((byCard["c2"]?.score ?? 0) > (byCard["c3"]?.score ?? 2))
    }
  }
}
