import Decks
import FeedCore

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
  /// Indexed decks missing from `paths` leave the index. A sync that changes something holds
  /// the database's sync lock, so two processes never import the same deck twice.
  ///
  /// Never inside `StateDatabase.transaction` (the import writes from a thread of its own).
  ///
  /// `progress` is called now and then while a deck is read: its path, the bytes read, its size.
  public func sync(
    decks paths: [String], progress: ((String, Int64, Int64) -> Void)? = nil
  ) throws -> SyncReport {
    var sync = DeckSync(database: database)
    sync.progress = progress
    return try sync.run(paths)
  }

  /// Every type with its metadata and number of cards, by name.
  public func catalog() throws -> [TypeCount] {
    try database.read { db in
      try db.rows("SELECT name, label, colour, description, cards FROM card_types ORDER BY name") {
        TypeCount(
          type: CardType(
            name: $0.text(0) ?? "", label: $0.text(1), colour: $0.text(2),
            description: $0.text(3)),
          cards: Int($0.integer(4)))
      }
    }
  }

  /// A reader of cards by (type, ordinal) on the database's own connections: the reader, or
  /// the writer inside `StateDatabase.transaction` (a deal in one transaction). For a feed
  /// that fetches from many threads, `CardReader(path:)` has a connection of its own.
  public func reader() -> CardReader { CardReader(database: database) }

  /// The indexed card with this id (history, undo), or nil when no deck has it any more.
  public func card(id: String) throws -> Card? {
    try database.read { db in
      try db.rows(
        "SELECT \(CardReader.columns) FROM cards WHERE id = ? AND ordinal IS NOT NULL",
        [.text(id)], CardReader.card
      ).first
    }
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

extension DeckIndex {
  /// The indexed card with this id: its type and its ordinal there (a live change to a deck's
  /// card finds the card the feed was built with).
  public func key(of id: String) throws -> CardKey? {
    try database.read { db in
      try db.rows(
        "SELECT type, ordinal FROM cards WHERE id = ? AND ordinal IS NOT NULL", [.text(id)]
      ) { CardKey(type: $0.text(0) ?? "", ordinal: Int($0.integer(1))) }.first
    }
  }

  /// The cards the index holds from the deck at `path` (each id's live copy only).
  public func cards(inDeck path: String) throws -> [Card] {
    try database.read { db in
      try db.rows(
        """
        SELECT \(CardReader.columns) FROM cards
        WHERE deck = (SELECT id FROM decks WHERE path = ?) AND ordinal IS NOT NULL
        ORDER BY line
        """, [.text(path)], CardReader.card)
    }
  }
}
