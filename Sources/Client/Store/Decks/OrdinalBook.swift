import Decks
import FeedCore
import SQL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the ordinals of every type dense (0..<count) across syncs.
///
/// New cards take the next ordinal of their type; removed cards and duplicate losers leave
/// holes that `compact` fills with the cards holding the highest ordinals, so only the cards
/// that move are written. A duplicate id's loser keeps its row with a NULL ordinal, so it
/// comes back if the winner's deck leaves.
struct OrdinalBook: Sendable {
  private var next: [String: Int]

  init(_ db: Connection) throws {
    let rows = try db.rows(
      "SELECT type, MAX(ordinal) + 1 FROM cards WHERE ordinal IS NOT NULL GROUP BY type"
    ) { ($0.text(0) ?? "", Int($0.integer(1))) }
    next = Dictionary(uniqueKeysWithValues: rows)
  }

  mutating func allocate(_ type: String) -> Int {
    defer { next[type, default: 0] += 1 }
    return next[type, default: 0]
  }

  /// Gives every id one live card: the one of the latest deck in the list, latest line
  /// within a deck; the server's card only when no deck has one (local and server cards are
  /// kept apart: a server never replaces the text of a card of the user's). Duplicates that involve a `touched` deck are reported as `DeckCheck`
  /// reports them: each copy replaces the one before it, in the order of the decks and lines.
  mutating func settleDuplicates(
    _ db: Connection, reporting touched: Set<Int64>
  ) throws -> [DeckProblem] {
    let ids = try db.rows(
      "SELECT id FROM cards GROUP BY id HAVING COUNT(*) > 1 OR COUNT(ordinal) = 0"
    ) { $0.text(0) ?? "" }
    let replacements = try ids.flatMap { try settle($0, db, reporting: touched) }
    return replacements.sorted { $0.by.precedes($1.by) }.map(\.problem)
  }

  /// One card of an id, with its deck.
  private struct Copy {
    var seq: Int64
    var type: String
    var ordinal: Int?
    var line: Int
    var path: String
    var deck: Int64
    var position: Int

    /// Whether this copy comes first in the list of decks and lines.
    func precedes(_ other: Copy) -> Bool { (position, line) < (other.position, other.line) }
  }

  /// Settles one id; returns each copy that replaces the one before it, with its problem.
  private mutating func settle(
    _ id: String, _ db: Connection, reporting touched: Set<Int64>
  ) throws -> [(by: Copy, problem: DeckProblem)] {
    let copies = try db.rows(
      """
      SELECT c.seq, c.type, c.ordinal, c.line, d.path, d.id, d.position FROM cards c
      JOIN decks d ON d.id = c.deck WHERE c.id = ? ORDER BY d.path != ?, d.position, c.line
      """, [.text(id), .text(ServerStore.deckPath)]
    ) {
      Copy(
        seq: $0.integer(0), type: $0.text(1) ?? "", ordinal: $0.optionalInteger(2),
        line: Int($0.integer(3)), path: $0.text(4) ?? "", deck: $0.integer(5),
        position: Int($0.integer(6)))
    }
    guard let winner = copies.last else { return [] }
    let losers = copies.dropLast()
    for loser in losers where loser.ordinal != nil {
      try db.run("UPDATE cards SET ordinal = NULL WHERE seq = ?", [.integer(loser.seq)])
    }
    if winner.ordinal == nil {
      try db.run(
        "UPDATE cards SET ordinal = ? WHERE seq = ?",
        [.integer(allocate(winner.type)), .integer(winner.seq)])
    }
    // The server's copy is no deck's line: only the local copies are reported.
    let local = copies.filter { $0.path != ServerStore.deckPath }
    guard local.contains(where: { touched.contains($0.deck) }) else { return [] }
    return zip(local.dropLast(), local.dropFirst()).map { loser, replacement in
      let message = "duplicate id \"\(id)\" replaces \(loser.path):\(loser.line)"
      let problem = DeckProblem(path: replacement.path, line: replacement.line, message: message)
      return (replacement, problem)
    }
  }

  /// Each type's span of ordinals (the highest plus one, holes included): the catalog while
  /// holes wait for `compact` (`ServerStore.apply(keepOrdinals:)`).
  static func spans(_ db: Connection) throws -> [String: Int] {
    let rows = try db.rows(
      "SELECT type, MAX(ordinal) + 1 FROM cards WHERE ordinal IS NOT NULL GROUP BY type"
    ) { ($0.text(0) ?? "", Int($0.integer(1))) }
    return Dictionary(uniqueKeysWithValues: rows)
  }

  /// Moves the cards with the highest ordinals into the holes; returns each type's count.
  static func compact(_ db: Connection) throws -> [String: Int] {
    let rows = try db.rows("SELECT type, COUNT(ordinal), MAX(ordinal) FROM cards GROUP BY type") {
      (type: $0.text(0) ?? "", count: Int($0.integer(1)), top: $0.optionalInteger(2))
    }
    var counts: [String: Int] = [:]
    for row in rows {
      counts[row.type] = row.count
      if let top = row.top, top + 1 > row.count { try fill(row.type, count: row.count, db) }
    }
    return counts
  }

  private static func fill(_ type: String, count: Int, _ db: Connection) throws {
    var holes: [Int] = []
    var expected = 0
    let below = try db.rows(
      "SELECT ordinal FROM cards WHERE type = ? AND ordinal < ? ORDER BY ordinal",
      [.text(type), .integer(count)]
    ) { Int($0.integer(0)) }
    for ordinal in below {
      holes += expected..<ordinal
      expected = ordinal + 1
    }
    holes += expected..<count
    let movers = try db.rows(
      "SELECT seq FROM cards WHERE type = ? AND ordinal >= ? ORDER BY ordinal",
      [.text(type), .integer(count)]
    ) { $0.integer(0) }
    let update = try db.statement("UPDATE cards SET ordinal = ? WHERE seq = ?")
    for (seq, hole) in zip(movers, holes) { try update.run([.integer(hole), .integer(seq)]) }
  }

  /// Rewrites the catalog: every type with cards or declared by a deck header (the latest
  /// deck's metadata wins, and any deck's wins over the server's; a type without metadata is
  /// labelled by its name).
  static func writeCatalog(_ db: Connection, counts: [String: Int]) throws {
    let decoder = JSONDecoder()
    var declared: [String: CardType] = [:]
    let declarations = try db.rows(
      "SELECT types FROM decks ORDER BY path != ?, position", [.text(ServerStore.deckPath)]
    ) { $0.text(0) ?? "[]" }
    for json in declarations {
      for type in try decoder.decode([CardType].self, from: Data(json.utf8)) {
        declared[type.name] = type
      }
    }
    try db.run("DELETE FROM card_types")
    for name in Set(declared.keys).union(counts.keys) {
      let type = declared[name] ?? CardType(name: name)
      try db.run(
        "INSERT INTO card_types (name, label, colour, description, cards) VALUES (?, ?, ?, ?, ?)",
        [
          .text(name), .text(type.label), .text(type.colour), .text(type.description),
          .integer(counts[name] ?? 0),
        ])
    }
  }
}
