import CardText
import Decks
import FeedCore
import YieldToUser
import SQL
import CTFOWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The server's cards: a deck of their own in the card index (`cards`), its row in `decks`
/// (path `ServerStore.deckPath`, which is no file's) with the server's types.
///
/// Every look-up of a card by id says `+deck`: SQLite would otherwise walk the server deck's
/// index (`cards_by_deck`, every card of the server) for each card; by id (`cards_by_id`) it is
/// one probe.
enum ServerCardTable {
  /// The id of the server's deck row, made when there is none.
  static func deck(_ db: Connection) throws -> Int64 {
    let found = try db.rows("SELECT id FROM decks WHERE path = ?", [.text(ServerStore.deckPath)]) {
      $0.integer(0)
    }
    if let id = found.first { return id }
    try db.run(
      "INSERT INTO decks (path, position, size, mtime, hash, name) "
        + "VALUES (?, 2147483647, 0, 0, '', 'server')", [.text(ServerStore.deckPath)])
    return db.lastInsertedRowID
  }

  /// The ids of the server's cards now stored.
  static func ids(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT id FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
      [.text(ServerStore.deckPath)]
    ) { $0.text(0) ?? "" }
  }

  /// The types of the server's cards now stored.
  static func types(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT DISTINCT type FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
      [.text(ServerStore.deckPath)]
    ) { $0.text(0) ?? "" }
  }

  static func count(_ db: Connection) throws -> Int {
    Int(
      try db.rows(
        "SELECT COUNT(*) FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
        [.text(ServerStore.deckPath)]
      ) { $0.integer(0) }.first ?? 0)
  }

  /// Deletes the server's cards of `ids`; with `keeping`, reads first where each was.
  /// (`SQLiteError` is the statement's own typed error, rethrown as any error here.)
  static func remove(
    _ ids: [String], deck: Int64, keeping: Bool, _ db: Connection
  ) throws -> (keys: [String: CardKey], count: Int) {
    var keys: [String: CardKey] = [:]
    var count = 0
    let find = try db.statement(
      "SELECT type, ordinal FROM cards WHERE +deck = ? AND id = ? AND ordinal IS NOT NULL")
    let remove = try db.statement("DELETE FROM cards WHERE +deck = ? AND id = ?")
    for id in ids {
      if keeping {
        let key = try find.rows([.integer(deck), .text(id)]) {
          CardKey(type: $0.text(0) ?? "", ordinal: Int($0.integer(1)))
        }.first
        keys[id] = key
      }
      try remove.run([.integer(deck), .text(id)])
      count += db.changes
    }
    return (keys, count)
  }

  /// Every server card and the server's deck row dropped (the server changed).
  static func forgetAll(_ db: Connection) throws {
    try db.run(
      "DELETE FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
      [.text(ServerStore.deckPath)])
    try db.run("DELETE FROM decks WHERE path = ?", [.text(ServerStore.deckPath)])
  }

  /// The server's types in the deck row's `types`: replaced by a full pull, merged otherwise.
  static func mergeTypes(
    _ types: [Wire.CardType], full: Bool, deck: Int64, _ db: Connection
  ) throws {
    guard full || !types.isEmpty else { return }
    let stored =
      try db.rows("SELECT types FROM decks WHERE id = ?", [.integer(deck)]) {
        $0.text(0) ?? "[]"
      }.first ?? "[]"
    var merged = full ? [] : try JSONDecoder().decode([CardType].self, from: Data(stored.utf8))
    for type in types where DeckName.problem(ofType: type.name) == nil {
      guard
        merged.contains(where: { $0.name == type.name })
          || merged.count < DeckParser.typesPerDeck
      else { continue }
      let colour = type.colour.flatMap { TerminalColour(rawValue: $0) == nil ? nil : $0 }
      let new = CardType(
        name: type.name, label: type.label, colour: colour, description: type.description)
      merged.removeAll { $0.name == type.name }
      merged.append(new)
    }
    let json = String(decoding: try JSONEncoder().encode(merged), as: UTF8.self)
    try db.run("UPDATE decks SET types = ? WHERE id = ?", [.text(json), .integer(deck)])
  }

  /// The deck rules for ids and type names, a body unless the pull left it out, and the size
  /// of a deck's card.
  static func problem(of card: Wire.Card) -> String? {
    let checked = Card(id: card.id, type: card.type, body: card.needsBody ? "-" : card.body ?? "")
    if let problem = DeckName.problem(of: checked) { return problem }
    let size = [card.title, card.body, card.source, card.url, card.reveal].reduce(0) {
      $0 + ($1?.utf8.count ?? 0)
    }
    return size > ServerStore.cardLimit ? ServerStore.cardTooLong : nil
  }

  /// What storing a pulled card did.
  enum Upserted {
    /// The card was stored as it is.
    case same
    case changed
    /// New, or of a new type: `leaving` is where it was under its old type.
    case added(leaving: CardKey?)
    /// Stored out of sight: a deck of the user's (or a bundled one) has a card of that id,
    /// which the server's never replaces. `leaving` is where it was while it showed.
    case shadowed(leaving: CardKey?)
  }

  /// Stores `card`. Under an id a local deck holds, it is kept without an ordinal (as a
  /// duplicate's loser is: `OrdinalBook.settleDuplicates`), so that the local card's text
  /// stays everywhere; it comes in if that card leaves its deck.
  static func upsert(
    _ card: Wire.Card, deck: Int64, book: inout OrdinalBook, _ db: Connection
  ) throws -> Upserted {
    let copies = try db.rows(
      "SELECT seq, type, ordinal, deck FROM cards WHERE id = ?", [.text(card.id)]
    ) { row in (row.integer(0), row.text(1) ?? "", row.optionalInteger(2), row.integer(3)) }
    let held = copies.first { $0.3 == deck }.map { ($0.0, $0.1, $0.2) }
    let local = copies.contains { $0.3 != deck }
    let fields: [SQLiteValue] = [
      .text(card.title), .text(card.storedBody), .text(card.source),
      .text(card.url), .text(card.reveal), .integer(card.needsBody ? 1 : 0),
      card.publishedAt.map { .integer($0) } ?? .null,
    ]
    if local {
      if let held { try db.run("DELETE FROM cards WHERE seq = ?", [.integer(held.0)]) }
      try db.run(
        "INSERT INTO cards (id, deck, line, type, ordinal, title, body, source, url, reveal, "
          + "body_missing, published_at) VALUES (?, ?, 0, ?, NULL, ?, ?, ?, ?, ?, ?, ?)",
        [.text(card.id), .integer(deck), .text(card.type)] + fields)
      return .shadowed(
        leaving: held.flatMap { held in held.2.map { CardKey(type: held.1, ordinal: Int($0)) } })
    }
    if let held, held.1 == card.type {
      try db.run(
        "UPDATE cards SET title = ?, body = ?, source = ?, url = ?, reveal = ?, "
          + "body_missing = ?, published_at = ? WHERE seq = ? AND (title IS NOT ? OR "
          + "body IS NOT ? OR source IS NOT ? OR url IS NOT ? OR reveal IS NOT ? OR "
          + "body_missing IS NOT ? OR published_at IS NOT ?)",
        fields + [.integer(held.0)] + fields)
      return db.changes > 0 ? .changed : .same
    }
    if let held { try db.run("DELETE FROM cards WHERE seq = ?", [.integer(held.0)]) }
    try db.run(
      "INSERT INTO cards (id, deck, line, type, ordinal, title, body, source, url, reveal, "
        + "body_missing, published_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        .text(card.id), .integer(deck), .text(card.type),
        .integer(book.allocate(card.type)),
      ] + fields)
    return .added(
      leaving: held.flatMap { held in held.2.map { CardKey(type: held.1, ordinal: Int($0)) } })
  }
}

extension ServerStore {
  /// The most bytes of text a server's card may hold: a deck's card is a line of at most
  /// this many.
  public static let cardLimit = DeckFile.lineLimit

  /// Why a card over `cardLimit` is left out.
  public static let cardTooLong = "over \(cardLimit >> 20) MiB, the limit of a deck's card"

  /// The pull's cards that go in: the deck rules, and at most `DeckParser.typesPerDeck` types
  /// on the server's deck (its stored types count unless the pull is full); the others are
  /// named in `applied.refused`.
  func accepted(_ pull: Wire.Pull, _ applied: inout Applied) throws -> [Wire.Card] {
    var types: Set<String> =
      pull.full ? [] : Set(try database.read { db in try ServerCardTable.types(db) })
    let limit = DeckParser.typesPerDeck
    var accepted: [Wire.Card] = []
    accepted.reserveCapacity(pull.cards.count)
    for card in pull.cards {
      Courtesy.yieldPoint()
      if let problem = ServerCardTable.problem(of: card) {
        applied.refused.append("\(card.id.prefix(64)): \(problem)")
        continue
      }
      if !types.contains(card.type) {
        guard types.count < limit else {
          applied.refused.append(
            "\(card.id.prefix(64)): a type too many: the server's cards have at most \(limit) types"
          )
          continue
        }
        types.insert(card.type)
      }
      accepted.append(card)
    }
    return accepted
  }

  /// A full pull's first step: the server's cards it does not hold deleted, a chunk a
  /// transaction. Returns where each was, with `keepOrdinals`.
  func removeStale(
    keeping accepted: [Wire.Card], keepOrdinals: Bool
  ) throws -> [String: CardKey] {
    // A yield point a card: the set of a large pull's ids and the filter are built in steps.
    var held = Set<String>(minimumCapacity: accepted.count)
    for card in accepted {
      held.insert(card.id)
      Courtesy.yieldPoint()
    }
    let stale = try database.read { db in try ServerCardTable.ids(db) }.filter {
      Courtesy.yieldPoint()
      return !held.contains($0)
    }
    var removedKeys: [String: CardKey] = [:]
    for chunk in stale.chunks(of: Self.applyChunk) {
      try database.pause()
      let keys = try database.writeWithoutWaitingForTheDisk { db in
        let deck = try ServerCardTable.deck(db)
        return try ServerCardTable.remove(Array(chunk), deck: deck, keeping: keepOrdinals, db).keys
      }
      removedKeys.merge(keys) { _, new in new }
    }
    return removedKeys
  }

  /// Stores the accepted cards, a chunk a transaction. With `keepOrdinals`: the cards added
  /// or changed, and where the cards that changed type were.
  func upsert(
    _ accepted: [Wire.Card], keepOrdinals: Bool
  ) throws -> (changed: [Card], moved: [String: CardKey]) {
    var changedCards: [Card] = []
    var movedKeys: [String: CardKey] = [:]
    // Grown a chunk at a time, the array would be copied whole at every chunk.
    if keepOrdinals { changedCards.reserveCapacity(accepted.count) }
    for chunk in accepted.chunks(of: Self.applyChunk) {
      try database.pause()
      let (keys, changed) = try database.writeWithoutWaitingForTheDisk { db in
        let deck = try ServerCardTable.deck(db)
        var book = try OrdinalBook(db)
        var moved: [String: CardKey] = [:]
        var changed: [Card] = []
        for card in chunk {
          switch try ServerCardTable.upsert(card, deck: deck, book: &book, db) {
          case .same: continue
          case .shadowed(let leaving):
            if let leaving { moved[card.id] = leaving }
            continue
          case .changed: break
          case .added(let leaving): if let leaving { moved[card.id] = leaving }
          }
          if keepOrdinals { changed.append(card.indexedCard) }
        }
        return (moved, changed)
      }
      if keepOrdinals {
        movedKeys.merge(keys) { _, new in new }
        changedCards += changed
      }
    }
    return (changedCards, movedKeys)
  }

  /// Closes the holes pulls made while an app ran (`apply(keepOrdinals:)`): the ordinals of the
  /// server's types dense again, the catalog rewritten. Cheap when there are none: one indexed
  /// count per type of the server's cards.
  public func compactIfNeeded() throws {
    let holes = try database.read { db in
      try db.rows(
        """
        SELECT COUNT(*) FROM (SELECT type, COUNT(ordinal) AS n, MAX(ordinal) AS top FROM cards
        WHERE type IN (SELECT DISTINCT type FROM cards WHERE deck =
          (SELECT id FROM decks WHERE path = ?)) AND ordinal IS NOT NULL GROUP BY type)
        WHERE n != top + 1
        """, [.text(Self.deckPath)]
      ) { $0.integer(0) }.first ?? 0
    }
    guard holes > 0 else { return }
    try database.write { db in
      var book = try OrdinalBook(db)
      _ = try book.settleDuplicates(db, reporting: [])
      try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
    }
  }

  /// Stores the body of a card a pull sent without it.
  public func saveBody(id: String, body: String) throws {
    try database.write { db in
      try db.run(
        "UPDATE cards SET body = ?, body_missing = 0 WHERE id = ? AND body_missing = 1 "
          + "AND +deck = (SELECT id FROM decks WHERE path = ?)",
        [.text(body), .text(id), .text(Self.deckPath)])
    }
  }

  /// The body stored for a card a pull sent without it, once fetched; nil until then.
  public func storedBody(id: String) throws -> String? {
    try database.read { db in
      try db.rows(
        "SELECT body FROM cards WHERE id = ? AND +deck = (SELECT id FROM decks WHERE path = ?) "
          + "AND body_missing = 0 AND body != ''", [.text(id), .text(Self.deckPath)]
      ) { $0.text(0) }.first ?? nil
    }
  }

  /// The next card whose body a pull left out and no fetch brought yet, not in `skipping`: one
  /// never shown before one shown, the best score first. A card a deck's card of its id keeps
  /// out of sight (`ServerCardTable.upsert`) is never fetched.
  public func nextMissingBody(skipping: Set<String>) throws -> String? {
    try database.read { db in
      try db.rows(
        "SELECT id FROM cards WHERE +deck = (SELECT id FROM decks WHERE path = ?) "
          + "AND body_missing = 1 AND ordinal IS NOT NULL "
          + "ORDER BY EXISTS (SELECT 1 FROM history WHERE "
          + "history.card_id = cards.id), score IS NULL, score DESC, seq",
        [.text(Self.deckPath)]
      ) { $0.text(0) ?? "" }.first { !skipping.contains($0) }
    }
  }

  /// The bytes of the server's card text stored: what the body precache's budget bounds.
  public func bodyBytes() throws -> Int {
    try database.read { db in
      Int(
        try db.rows(
          "SELECT COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) FROM cards "
            + "WHERE deck = (SELECT id FROM decks WHERE path = ?)", [.text(Self.deckPath)]
        ) { $0.integer(0) }.first ?? 0)
    }
  }
}

extension Array {
  /// The array cut into slices of at most `size` elements, in order.
  fileprivate func chunks(of size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}

extension Wire.Card {
  /// The body as the index keeps it: empty for a card sent without it (fetched when shown).
  var storedBody: String { needsBody ? "" : body ?? "" }

  /// The card as the index keeps it.
  var indexedCard: Card {
    Card(
      id: id, type: type, title: title, body: storedBody, source: source, url: url,
      reveal: reveal)
  }
}
