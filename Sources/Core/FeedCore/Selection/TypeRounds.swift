/// Type balance by shuffled rounds: each type once per round, in a random order.
///
/// Shown counts per type never differ by more than one per round, which gives every enabled
/// type its equal share of the feed (feed-logic.md) without the drift of independent draws.
public struct TypeRounds: Sendable, Hashable {
  /// The types still to deal in the current round, dealt from the end.
  public private(set) var round: [String] = []

  public init() {}

  /// The next type to deal. `types` are the types that can be dealt now (enabled, with cards
  /// available); a new round starts when the current one is used up. Nil when `types` is empty.
  public mutating func next(
    among types: [String], using rng: inout some RandomNumberGenerator
  ) -> String? {
    round.removeAll { !types.contains($0) }
    if round.isEmpty { round = types.shuffled(using: &rng) }
    return round.popLast()
  }

  /// Starts over: the next call begins a fresh round.
  public mutating func reset() { round = [] }

  /// Continues a round begun in an earlier run, in which `shown` were dealt: the rest of
  /// `types` come first, in a random order.
  public mutating func resume(
    after shown: Set<String>, among types: [String], using rng: inout some RandomNumberGenerator
  ) {
    round = types.filter { !shown.contains($0) }.shuffled(using: &rng)
  }
}
