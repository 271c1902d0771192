import FeedCore

/// The cards of the indexed decks: the catalog is the index's type counts as read at launch,
/// and fetching a card is one indexed query (feed-logic.md's "DB query" of preparation).
///
/// A card the server sent without its body (a deck card never has an empty one) gets it from
/// `fetchBody` while it is prepared; without one (`ctfo next`, which never waits for the
/// network) it is skipped.
public struct DeckSource: CardSource {
  private let types: [TypeCount]
  private let reader: CardReader
  private let fetchBody: (@Sendable (String) async throws -> String)?

  public init(
    catalog: [TypeCount], reader: CardReader,
    fetchBody: (@Sendable (_ id: String) async throws -> String)? = nil
  ) {
    types = catalog
    self.reader = reader
    self.fetchBody = fetchBody
  }

  public func catalog() async throws -> [TypeCount] { types }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    guard var card = try reader.card(type: type, ordinal: ordinal) else {
      throw MissingCard(type: type, ordinal: ordinal)
    }
    if card.body.isEmpty, let fetchBody { card.body = try await fetchBody(card.id) }
    guard !card.body.isEmpty else { throw MissingCard(type: type, ordinal: ordinal) }
    return card
  }

  /// The card, fetched on the calling thread (`SerialDeal`'s fetch); one without its body is
  /// skipped.
  public func card(type: String, ordinal: Int) throws -> Card {
    guard let card = try reader.card(type: type, ordinal: ordinal), !card.body.isEmpty else {
      throw MissingCard(type: type, ordinal: ordinal)
    }
    return card
  }
}

/// A card the index no longer has (its deck changed under the running app).
public struct MissingCard: Error, Hashable {
  public var type: String
  public var ordinal: Int

  public init(type: String, ordinal: Int) {
    self.type = type
    self.ordinal = ordinal
  }
}
