import Decks
import FeedCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One run of `DeckIndex.sync(decks:)`: compares the listed decks with the index, re-imports
/// what changed, then settles duplicate ids and renumbers the ordinals densely.
///
/// When nothing changed (the usual launch) it costs one read of `decks` and one open+fstat
/// per deck. Otherwise it takes the `SyncLock`, then compares again: another process may
/// have done the work meanwhile.
struct DeckSync {
  private struct IndexedDeck: Sendable {
    var id: Int64
    var position: Int
    var size: Int64
    var mtime: Double
    var hash: String
    var problems: String
  }

  let database: StateDatabase
  /// Told the path, the bytes read and the size while a deck is imported.
  var progress: ((String, Int64, Int64) -> Void)?
  private var report = SyncReport()
  private var touched: Set<Int64> = []
  private var changed = false
  private var ordinals: OrdinalBook?
  /// Whether the first import found the index empty and dropped the card indexes.
  private var bulkLoading = false

  init(database: StateDatabase) {
    self.database = database
  }

  consuming func run(_ paths: [String]) throws -> SyncReport {
    precondition(!database.isWritingOnCurrentThread, "DeckIndex.sync inside a transaction")
    var seen = Set<String>()
    let listed = paths.filter { seen.insert($0).inserted }
    let indexed = try indexedDecks()
    if Self.isCurrent(indexed, listed) {
      return SyncReport(problems: try Self.problems(of: listed, in: indexed))
    }
    let lock = try SyncLock(databasePath: database.path)
    let known = try indexedDecks()
    let unlisted = known.filter { !seen.contains($0.key) }.sorted {
      $0.value.position < $1.value.position
    }
    for (path, deck) in unlisted { try remove(deck.id, path: path) }
    for (position, path) in listed.enumerated() {
      try sync(path, position: position, indexed: known[path])
    }
    if changed { try settle() }
    report.problems = try Self.problems(of: listed, in: indexedDecks()) + report.problems
    _ = consume lock
    return report
  }

  private func indexedDecks() throws -> [String: IndexedDeck] {
    try database.readOnWriter { db in
      // The server's cards sit under a deck row of their own, which no file lists.
      let rows = try db.rows(
        "SELECT id, path, position, size, mtime, hash, problems FROM decks WHERE path <> ?",
        [.text(ServerStore.deckPath)]
      ) {
        (
          $0.text(1) ?? "",
          IndexedDeck(
            id: $0.integer(0), position: Int($0.integer(2)), size: $0.integer(3),
            mtime: $0.real(4), hash: $0.text(5) ?? "", problems: $0.text(6) ?? "[]")
        )
      }
      return Dictionary(rows) { first, _ in first }
    }
  }

  /// Whether the index holds exactly `listed`, at their positions, as they are on disk.
  private static func isCurrent(_ indexed: [String: IndexedDeck], _ listed: [String]) -> Bool {
    guard indexed.count == listed.count else { return false }
    return listed.enumerated().allSatisfy { position, path in
      guard let deck = indexed[path], deck.position == position,
        let file = FileStamp.ofReadable(path)
      else { return false }
      return file.size == deck.size && file.mtime == deck.mtime
    }
  }

  /// The problems stored with the listed decks, in list order.
  private static func problems(
    of listed: [String], in indexed: [String: IndexedDeck]
  ) throws -> [DeckProblem] {
    let stored = listed.compactMap { indexed[$0]?.problems }.filter { $0 != "[]" }
    guard !stored.isEmpty else { return [] }
    let decoder = JSONDecoder()
    return try stored.flatMap { try decoder.decode([DeckProblem].self, from: Data($0.utf8)) }
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
    if ordinals == nil { try prepareImports() }
    do {
      var importer = DeckImport(database: database, deck: deck)
      if let progress { importer.progress = { progress(file.path, $0, $1) } }
      try importer.run(file, ordinals: &ordinals!)
      report.indexed.append(file.path)
    } catch let problem as DeckProblem {
      report.problems.append(problem)
      try remove(deck, path: file.path)
    }
  }

  /// Loads the ordinal book; into an empty index, drops the card indexes for a bulk load.
  private mutating func prepareImports() throws {
    let (book, dropped) = try database.write { db in
      let empty = try db.rows("SELECT EXISTS (SELECT 1 FROM cards)") { $0.integer(0) } == [0]
      if empty { try Migrations.dropCardIndexes(db) }
      return (try OrdinalBook(db), empty)
    }
    ordinals = book
    bulkLoading = dropped
  }

  /// Settles duplicate ids, makes the ordinals dense again and rewrites the catalog.
  private mutating func settle() throws {
    let (bulkLoading, ordinals, touched) = (bulkLoading, ordinals, touched)
    report.problems += try database.write { db in
      if bulkLoading { try Migrations.ensureCardIndexes(db) }
      var book = try ordinals ?? OrdinalBook(db)
      let problems = try book.settleDuplicates(db, reporting: touched)
      try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
      return problems
    }
  }

  private mutating func remove(_ deck: Int64, path: String) throws {
    changed = true
    try database.write { db in
      try db.run("DELETE FROM cards WHERE deck = ?", [.integer(deck)])
      try db.run("DELETE FROM decks WHERE id = ?", [.integer(deck)])
    }
    report.removed.append(path)
  }

  private mutating func move(_ deck: Int64, to position: Int) throws {
    changed = true
    try database.write { db in
      try db.run(
        "UPDATE decks SET position = ? WHERE id = ?", [.integer(position), .integer(deck)])
    }
  }

  private func touch(_ deck: Int64, _ file: DeckFile) throws {
    try database.write { db in
      try db.run(
        "UPDATE decks SET size = ?, mtime = ? WHERE id = ?",
        [.integer(file.size), .real(file.mtime), .integer(deck)])
    }
  }

  private func insertDeck(_ path: String, position: Int) throws -> Int64 {
    try database.write { db in
      try db.run(
        "INSERT INTO decks (path, position, size, mtime, hash) VALUES (?, ?, -1, -1, '')",
        [.text(path), .integer(position)])
      return db.lastInsertedRowID
    }
  }
}
