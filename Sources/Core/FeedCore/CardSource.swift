/// Where cards come from: a deck index, the CTFO server, any live source.
///
/// A source numbers the cards of each type 0..<count (their ordinals); the feed engine picks
/// ordinals and the source fetches the card behind one when it is prepared.
public protocol CardSource: Sendable {
  /// The types this source offers and how many cards each has.
  func catalog() async throws -> [TypeCount]
  /// Fetches one card. Throwing marks the card seen and skips it (never retried).
  func fetch(type: String, ordinal: Int) async throws -> Card
}
