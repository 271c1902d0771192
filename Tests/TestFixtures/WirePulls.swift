import CTFOWire

/// Pulls made up for the tests of the protocol's JSON.
public enum WirePulls {
  /// A pull with every member, its arrays long enough to span several groups.
  public static func pull(cards: Int) -> Wire.Pull {
    Wire.Pull(
      cacheKey: "k\"1", full: true, serverTime: 1_700_000_000_000,
      types: [Wire.CardType(name: "fact", label: "Fact ]}", colour: "red")],
      cards: (0..<cards).map { i in
        Wire.Card(
          id: "c\(i)", type: "fact", title: i % 3 == 0 ? nil : "Title [\(i)] {\"}",
          body: i % 7 == 0 ? nil : "Body \\ \(i) ],[ \u{1F600} é " + String(repeating: "w", count: i % 50),
          bodyOmitted: i % 7 == 0 ? true : nil, source: "S", url: "https://example.org/\(i)",
          publishedAt: Int64(i))
      },
      removed: (0..<150).map { "gone,\($0)]" },
      scores: (0..<cards).map { Wire.Score(cardId: "c\($0)", score: Double($0) / 3, scoredAt: 5) },
      user: Wire.User(status: "ok", notifications: []))
  }
}
