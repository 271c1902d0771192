import FeedCore
import Foundation
import GRDB

/// One run of `DeckIndex.sync(decks:)`: compares the listed decks with the index, re-imports
/// what changed, then settles duplicate ids and renumbers the ordinals densely.
struct DeckSync {
  private struct IndexedDeck {
    var id: Int64
    var position: Int
    var size: Int64
    var mtime: Double
    var hash: String
  }

  let pool: DatabasePool
  private var report = SyncReport()
  private var touched: Set<Int64> = []
  private var changed = false
  private var ordinals: OrdinalBook?

  init(pool: DatabasePool) {
    self.pool = pool
  }

  consuming func run(_ paths: [String]) throws -> SyncReport {
    var seen = Set<String>()
    let listed = paths.filter { seen.insert($0).inserted }
    let known = try indexedDecks()
    for (path, deck) in known where !seen.contains(path) {
      try remove(deck.id, path: path)
    }
    for (position, path) in listed.enumerated() {
      try sync(path, position: position, indexed: known[path])
    }
    if changed { try settle() }
    report.problems = try storedProblems(listed) + report.problems
    return report
  }

  private func indexedDecks() throws -> [String: IndexedDeck] {
    try pool.read { db in
      let rows = try Row.fetchAll(db, sql: "SELECT id, path, position, size, mtime, hash FROM decks")
      return Dictionary(
        uniqueKeysWithValues: rows.map {
          ($0[1], IndexedDeck(id: $0[0], position: $0[2], size: $0[3], mtime: $0[4], hash: $0[5]))
        })
    }
  }

  private mutating func sync(_ path: String, position: Int, indexed: IndexedDeck?) throws {
    let file: DeckFile
    do {
      file = try DeckFile(path: path)
    } catch {
      report.problems.append(error)
      if let indexed { try remove(indexed.id, path: path) }
      return
    }
    guard let indexed else {
      return try reindex(file, deck: try insertDeck(path, position: position))
    }
    if indexed.position != position { try move(indexed.id, to: position) }
    guard indexed.size != file.size || indexed.mtime != file.mtime else { return }
    do {
      if try file.contentHash() == indexed.hash { return try touch(indexed.id, file) }
    } catch let problem as DeckProblem {
      report.problems.append(problem)
      return try remove(indexed.id, path: path)
    }
    try reindex(file, deck: indexed.id)
  }

  /// Imports the deck again; a read error midway removes it (and reports the problem).
  private mutating func reindex(_ file: DeckFile, deck: Int64) throws {
    changed = true
    touched.insert(deck)
    if ordinals == nil { ordinals = try pool.read { try OrdinalBook($0) } }
    do {
      try DeckImport(pool: pool, deck: deck).run(file, ordinals: &ordinals!)
      report.indexed.append(file.path)
    } catch let problem as DeckProblem {
      report.problems.append(problem)
      try remove(deck, path: file.path)
    }
  }

  /// Settles duplicate ids, makes the ordinals dense again and rewrites the catalog.
  private mutating func settle() throws {
    try pool.write { db in
      var book = try ordinals ?? OrdinalBook(db)
      report.problems += try book.settleDuplicates(db, reporting: touched)
      try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
    }
  }

  private mutating func remove(_ deck: Int64, path: String) throws {
    changed = true
    try pool.write { db in
      try db.execute(sql: "DELETE FROM cards WHERE deck = ?", arguments: [deck])
      try db.execute(sql: "DELETE FROM decks WHERE id = ?", arguments: [deck])
    }
    report.removed.append(path)
  }

  private mutating func move(_ deck: Int64, to position: Int) throws {
    changed = true
    try pool.write { db in
      try db.execute(sql: "UPDATE decks SET position = ? WHERE id = ?", arguments: [position, deck])
    }
  }

  private func touch(_ deck: Int64, _ file: DeckFile) throws {
    try pool.write { db in
      try db.execute(
        sql: "UPDATE decks SET size = ?, mtime = ? WHERE id = ?",
        arguments: [file.size, file.mtime, deck])
    }
  }

  private func insertDeck(_ path: String, position: Int) throws -> Int64 {
    try pool.write { db in
      try db.execute(
        sql: "INSERT INTO decks (path, position, size, mtime, hash) VALUES (?, ?, -1, -1, '')",
        arguments: [path, position])
      return db.lastInsertedRowID
    }
  }

  private func storedProblems(_ listed: [String]) throws -> [DeckProblem] {
    let stored = try pool.read { db in
      try Dictionary(
        uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT path, problems FROM decks").map {
          (row: Row) -> (String, String) in (row[0], row[1])
        })
    }
    let decoder = JSONDecoder()
    return try listed.flatMap { path in
      try stored[path].map { try decoder.decode([DeckProblem].self, from: Data($0.utf8)) } ?? []
    }
  }
}
