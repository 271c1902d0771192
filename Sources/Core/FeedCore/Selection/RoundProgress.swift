/// Where a home stands in its rounds, kept across runs: per type, the cards shown since the
/// type last started over, and the types shown in the current round of types.
///
/// feed-logic.md's "session" is the home's, not the process's: the store records every card
/// shown with `shown(_:type:cards:types:)` (by id) in the transaction of its history row, and
/// each run's engine starts from the record (by ordinal, `FeedEngine(resuming:)`), so a card
/// seen in one `ctfo next` or one launch of the app does not come back in the next before its
/// type has run out, and the types keep their turns.
///
///     var progress = RoundProgress<String>()
///     progress.shown("f1", type: "fact", cards: 2, types: ["fact", "word"])
///     progress.shown("f2", type: "fact", cards: 2, types: ["fact", "word"])
///     progress.shown("f1", type: "fact", cards: 2, types: ["fact", "word"])
///     progress.seen["fact"]  // ["f1"]: every fact had been seen, so f1 began a new round
public struct RoundProgress<Card: Hashable & Sendable>: Sendable, Hashable {
  /// The cards of each type shown in its current round.
  public var seen: [String: Set<Card>]
  /// The types shown in the current round of types.
  public var typesShown: Set<String>

  public init(seen: [String: Set<Card>] = [:], typesShown: Set<String> = []) {
    self.seen = seen
    self.typesShown = typesShown
  }

  /// Records a card shown. `cards` is how many cards its type holds and `types` the types
  /// dealt now (enabled, with cards). Once every card of the type was seen, the card begins the
  /// type's next round; once every type was shown, the type begins the next round of types.
  /// A card or a type shown again before then (two processes on one home dealing at once) is
  /// no new round: the others still come first.
  public mutating func shown(_ card: Card, type: String, cards: Int, types: Set<String>) {
    if seen[type, default: []].count >= cards { seen[type] = [] }
    seen[type, default: []].insert(card)
    if typesShown.isSuperset(of: types) { typesShown = [] }
    typesShown.insert(type)
  }
}
