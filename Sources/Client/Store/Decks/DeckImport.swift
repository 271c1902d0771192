import Decks
import FeedCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Streams one deck file into the index: parses it line by line and inserts its cards with
/// a prepared statement, one transaction per batch.
///
/// The deck row is marked pending (size -1) in the first transaction and completed in the
/// last, so an import cut short is redone by the next sync.
struct DeckImport {
  static let batchSize = 10_000

  let database: StateDatabase
  let deck: Int64
  /// Called now and then with the bytes read and the file's size.
  var progress: ((Int64, Int64) -> Void)? = nil

  func run(_ file: DeckFile, ordinals: inout OrdinalBook) throws {
    try database.write { db in
      try db.run("DELETE FROM cards WHERE deck = ?", [.integer(deck)])
      try db.run("UPDATE decks SET size = -1, hash = '' WHERE id = ?", [.integer(deck)])
    }
    var header = DeckHeader(name: nil, types: [])
    var problems: [DeckProblem] = []
    var batch: [IndexedCard] = []
    batch.reserveCapacity(Self.batchSize)
    let inserter = BatchInserter(database: database, deck: deck)
    let outcome = try DeckEntries.read(file, progress: progress) { entry, line in
      switch entry {
      case .blank: break
      case .header(let parsed): header = parsed
      case .card(let card):
        batch.append(IndexedCard(card: card, line: line, ordinal: ordinals.allocate(card.type)))
      case .problem(let message):
        problems.append(DeckProblem(path: file.path, line: line, message: message))
      }
      if batch.count == Self.batchSize {
        try inserter.enqueue(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    try inserter.enqueue(batch)
    try inserter.finish()
    try complete(file, hash: outcome.hash, header: header, problems: outcome.problems + problems)
  }

  private func complete(
    _ file: DeckFile, hash: String, header: DeckHeader, problems: [DeckProblem]
  ) throws {
    let encoder = JSONEncoder()
    let types = String(decoding: try encoder.encode(header.types), as: UTF8.self)
    let problemsJSON = String(decoding: try encoder.encode(problems), as: UTF8.self)
    try database.write { db in
      try db.run(
        "UPDATE decks SET size = ?, mtime = ?, hash = ?, name = ?, types = ?, problems = ? "
          + "WHERE id = ?",
        [
          .integer(file.size), .real(file.mtime), .text(hash), .text(header.name), .text(types),
          .text(problemsJSON), .integer(deck),
        ])
    }
  }
}

/// A parsed card with its place in the deck and its ordinal.
struct IndexedCard: Sendable {
  var card: Card
  var line: Int
  var ordinal: Int
}
