import FeedCore
import StateFile
import GRDB

/// The deck index: the cards of every deck, numbered per type by a dense ordinal.
///
/// A launch reads only the catalog (each type and its number of cards); the text of a card is
/// fetched by one indexed query when the card is prepared (`reader()`).
///
/// ```swift
/// let index = DeckIndex(database: database)
/// let report = try index.sync(decks: bundled + userDecks)
/// for type in try index.catalog() { print(type.type.label, type.cards) }
/// let card = try index.reader().card(type: "fact", ordinal: 42)
/// ```
public struct DeckIndex: Sendable {
  let database: StateDatabase

  public init(database: StateDatabase) {
    self.database = database
  }

  /// Indexes the decks at `paths` (later ones win duplicate ids): a deck is read again only
  /// when its size or mtime changed and then only re-indexed when its content hash differs.
  /// Indexed decks missing from `paths` leave the index.
  public func sync(decks paths: [String]) throws -> SyncReport {
    try DeckSync(pool: database.pool).run(paths)
  }

  /// Every type with its metadata and number of cards, by name.
  public func catalog() throws -> [TypeCount] {
    try database.pool.read { db in
      try Row.fetchAll(db, sql: StateSchema.catalogSQL).map {
        TypeCount(
          type: CardType(name: $0[0], label: $0[1], colour: $0[2], description: $0[3]),
          cards: $0[4])
      }
    }
  }

  /// A reader of cards by (type, ordinal), on a connection of its own: what every preparation
  /// runs (see `CardReader`).
  public func reader() throws -> CardReader { try CardReader(path: database.path) }

  /// The indexed card with this id (history, undo), or nil when no deck has it any more.
  public func card(id: String) throws -> Card? {
    try database.pool.read { db in
      try Row.fetchOne(
        db, sql: "SELECT \(StateSchema.cardColumns) FROM cards WHERE id = ? AND ordinal IS NOT NULL",
        arguments: [id]
      ).map(Self.card)
    }
  }


  private static func card(_ row: Row) -> Card {
    Card(
      id: row[0], type: row[1], title: row[2], body: row[3], source: row[4], url: row[5],
      reveal: row[6])
  }
}

/// What a sync did: the problems found, the decks (re)indexed and the decks removed.
public struct SyncReport: Sendable, Hashable {
  /// Bad lines and duplicate ids of every listed deck (remembered from when it was indexed),
  /// and unreadable files.
  public var problems: [DeckProblem] = []
  public var indexed: [String] = []
  public var removed: [String] = []

  public init(problems: [DeckProblem] = [], indexed: [String] = [], removed: [String] = []) {
    self.problems = problems
    self.indexed = indexed
    self.removed = removed
  }
}
