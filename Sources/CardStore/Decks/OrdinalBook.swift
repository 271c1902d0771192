import FeedCore
import Foundation
import GRDB

/// Keeps the ordinals of every type dense (0..<count) across syncs.
///
/// New cards take the next ordinal of their type; removed cards and duplicate losers leave
/// holes that `compact` fills with the cards holding the highest ordinals, so only the cards
/// that move are written. A duplicate id's loser keeps its row with a NULL ordinal, so it
/// comes back if the winner's deck leaves.
struct OrdinalBook {
  private var next: [String: Int]

  init(_ db: Database) throws {
    let rows = try Row.fetchAll(
      db, sql: "SELECT type, MAX(ordinal) + 1 FROM cards WHERE ordinal IS NOT NULL GROUP BY type")
    next = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
  }

  mutating func allocate(_ type: String) -> Int {
    defer { next[type, default: 0] += 1 }
    return next[type, default: 0]
  }

  /// Gives every id one live card: the one of the latest deck in the list, latest line
  /// within a deck. Duplicates that involve a `touched` deck are reported.
  mutating func settleDuplicates(
    _ db: Database, reporting touched: Set<Int64>
  ) throws -> [DeckProblem] {
    let ids = try String.fetchAll(
      db, sql: "SELECT id FROM cards GROUP BY id HAVING COUNT(*) > 1 OR COUNT(ordinal) = 0")
    return try ids.flatMap { try settle($0, db, reporting: touched) }
  }

  private mutating func settle(
    _ id: String, _ db: Database, reporting touched: Set<Int64>
  ) throws -> [DeckProblem] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT c.seq, c.type, c.ordinal, c.line, d.path, d.id FROM cards c
        JOIN decks d ON d.id = c.deck WHERE c.id = ? ORDER BY d.position, c.line
        """, arguments: [id])
    guard let winner = rows.last else { return [] }
    let losers = rows.dropLast()
    for loser in losers where loser[2] as Int? != nil {
      try db.execute(sql: "UPDATE cards SET ordinal = NULL WHERE seq = ?", arguments: [loser[0]])
    }
    if winner[2] as Int? == nil {
      try db.execute(
        sql: "UPDATE cards SET ordinal = ? WHERE seq = ?",
        arguments: [allocate(winner[1]), winner[0]])
    }
    guard rows.contains(where: { touched.contains($0[5]) }) else { return [] }
    return losers.map { loser in
      let (path, line): (String, Int) = (loser[4], loser[3])
      return DeckProblem(
        path: winner[4], line: winner[3], message: "duplicate id \"\(id)\" replaces \(path):\(line)")
    }
  }

  /// Moves the cards with the highest ordinals into the holes; returns each type's count.
  static func compact(_ db: Database) throws -> [String: Int] {
    let rows = try Row.fetchAll(
      db, sql: "SELECT type, COUNT(ordinal), MAX(ordinal) FROM cards GROUP BY type")
    var counts: [String: Int] = [:]
    for row in rows {
      let (type, count, top): (String, Int, Int?) = (row[0], row[1], row[2])
      counts[type] = count
      if let top, top + 1 > count { try fill(type, count: count, db) }
    }
    return counts
  }

  private static func fill(_ type: String, count: Int, _ db: Database) throws {
    var holes: [Int] = []
    var expected = 0
    let below = try Int.fetchCursor(
      db, sql: "SELECT ordinal FROM cards WHERE type = ? AND ordinal < ? ORDER BY ordinal",
      arguments: [type, count])
    while let ordinal = try below.next() {
      holes += expected..<ordinal
      expected = ordinal + 1
    }
    holes += expected..<count
    let movers = try Int64.fetchAll(
      db, sql: "SELECT seq FROM cards WHERE type = ? AND ordinal >= ? ORDER BY ordinal",
      arguments: [type, count])
    let update = try db.cachedStatement(sql: "UPDATE cards SET ordinal = ? WHERE seq = ?")
    for (seq, hole) in zip(movers, holes) { try update.execute(arguments: [hole, seq]) }
  }

  /// Rewrites the catalog: every type with cards or declared by a deck header (the latest
  /// deck's metadata wins; a type without metadata is labelled by its name).
  static func writeCatalog(_ db: Database, counts: [String: Int]) throws {
    let decoder = JSONDecoder()
    var declared: [String: CardType] = [:]
    for json in try String.fetchAll(db, sql: "SELECT types FROM decks ORDER BY position") {
      for type in try decoder.decode([CardType].self, from: Data(json.utf8)) {
        declared[type.name] = type
      }
    }
    try db.execute(sql: "DELETE FROM card_types")
    for name in Set(declared.keys).union(counts.keys) {
      let type = declared[name] ?? CardType(name: name)
      try db.execute(
        sql: "INSERT INTO card_types (name, label, colour, description, cards) VALUES (?, ?, ?, ?, ?)",
        arguments: [name, type.label, type.colour, type.description, counts[name] ?? 0])
    }
  }
}
