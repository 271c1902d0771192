import Foundation
import GRDB

/// The state database: one SQLite file holding the deck index, history, settings, undo
/// tombstones and outboxes.
///
/// WAL mode with `synchronous = FULL`, so a committed transaction survives a power cut and
/// readers never wait for the writer. Opening runs the pending migrations.
///
/// ```swift
/// let database = try StateDatabase(path: home + "/state/ctfo.sqlite")
/// let index = DeckIndex(database: database)
/// let state = StateStore(database: database)
/// ```
public final class StateDatabase: Sendable {
  let pool: DatabasePool

  /// The database file.
  public var path: String { pool.path }

  /// Opens (or creates, with its folder) the database at `path` and migrates it.
  public init(path: String) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var configuration = Configuration()
    // Another ctfo process (`ctfo next` beside the TUI) may hold the write lock briefly.
    configuration.busyMode = .timeout(5)
    pool = try DatabasePool(path: path, configuration: configuration)
    try pool.writeWithoutTransaction { db in
      // GRDB sets NORMAL for WAL; FULL also syncs the WAL at every commit (see DECISIONS).
      try db.execute(sql: "PRAGMA synchronous = FULL")
      // 32 MiB of page cache for the writer: a large import updates the id index all over.
      try db.execute(sql: "PRAGMA cache_size = -32768")
    }
    try Migrations.migrator.migrate(pool)
    try pool.write(Migrations.ensureCardIndexes)
  }

  /// The value of a pragma on the writing connection (`journal_mode`, `synchronous`, ...).
  public func pragma(_ name: String) throws -> String? {
    try pool.writeWithoutTransaction { db in
      try String.fetchOne(db, sql: "PRAGMA \(name)")
    }
  }

  /// SQLite's `PRAGMA integrity_check`: "ok" when the file is sound.
  public func integrityCheck() throws -> String {
    try pool.read { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
    }
  }
}
