import FeedCore
import Store

/// The cards of the indexed decks: the catalog is the index's type counts as read at launch,
/// and fetching a card is one indexed query (feed-logic.md's "DB query" of preparation).
public struct DeckSource: CardSource {
  private let types: [TypeCount]
  private let reader: CardReader

  public init(catalog: [TypeCount], reader: CardReader) {
    types = catalog
    self.reader = reader
  }

  public func catalog() async throws -> [TypeCount] { types }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    try card(type: type, ordinal: ordinal)
  }

  /// The card, fetched on the calling thread (`SerialDeal`'s fetch).
  public func card(type: String, ordinal: Int) throws -> Card {
    guard let card = try reader.card(type: type, ordinal: ordinal) else {
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

/// A source that waits before every fetch: lets tests and demos see the loading placeholder.
public struct DelayedSource<Base: CardSource>: CardSource {
  private let base: Base
  private let milliseconds: Int

  public init(base: Base, milliseconds: Int) {
    self.base = base
    self.milliseconds = milliseconds
  }

  public func catalog() async throws -> [TypeCount] { try await base.catalog() }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    try await Task.sleep(for: .milliseconds(milliseconds))
    return try await base.fetch(type: type, ordinal: ordinal)
  }
}
