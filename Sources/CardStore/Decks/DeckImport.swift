import FeedCore
import Foundation
import GRDB

/// Streams one deck file into the index: parses it line by line and inserts its cards with
/// a prepared statement, one transaction per batch.
///
/// The deck row is marked pending (size -1) in the first transaction and completed in the
/// last, so an import cut short is redone by the next sync.
struct DeckImport {
  static let batchSize = 10_000

  let pool: DatabasePool
  let deck: Int64

  func run(_ file: DeckFile, ordinals: inout OrdinalBook) throws {
    try pool.write { db in
      try db.execute(sql: "DELETE FROM cards WHERE deck = ?", arguments: [deck])
      try db.execute(sql: "UPDATE decks SET size = -1, hash = '' WHERE id = ?", arguments: [deck])
    }
    var parser = DeckParser()
    var header = DeckHeader(name: nil, types: [])
    var problems: [DeckProblem] = []
    var batch: [(card: Card, line: Int)] = []
    batch.reserveCapacity(Self.batchSize)
    let hash = try file.forEachLine { bytes, line in
      switch parser.parse(bytes) {
      case .blank: break
      case .header(let parsed): header = parsed
      case .card(let card): batch.append((card, line))
      case .problem(let message):
        problems.append(DeckProblem(path: file.path, line: line, message: message))
      }
      if batch.count == Self.batchSize {
        try insert(batch, ordinals: &ordinals)
        batch.removeAll(keepingCapacity: true)
      }
    }
    try insert(batch, ordinals: &ordinals)
    try complete(file, hash: hash, header: header, problems: problems)
  }

  private func insert(_ batch: [(card: Card, line: Int)], ordinals: inout OrdinalBook) throws {
    try pool.write { db in
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO cards (id, deck, line, type, ordinal, title, body, source, url, reveal)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      for (card, line) in batch {
        try statement.execute(arguments: [
          card.id, deck, line, card.type, ordinals.allocate(card.type), card.title, card.body,
          card.source, card.url, card.reveal,
        ])
      }
    }
  }

  private func complete(
    _ file: DeckFile, hash: String, header: DeckHeader, problems: [DeckProblem]
  ) throws {
    let encoder = JSONEncoder()
    let types = String(decoding: try encoder.encode(header.types), as: UTF8.self)
    let problemsJSON = String(decoding: try encoder.encode(problems), as: UTF8.self)
    try pool.write { db in
      try db.execute(
        sql: """
          UPDATE decks SET size = ?, mtime = ?, hash = ?, name = ?, types = ?, problems = ?
          WHERE id = ?
          """,
        arguments: [file.size, file.mtime, hash, header.name, types, problemsJSON, deck])
    }
  }
}
