import Foundation
import SQL
import TestFixtures
import Testing

/// One connection on a temporary database: its statements cached, text bound byte for byte,
/// transactions rolled back on a throw, read-only connections refused a write.
@Suite struct ConnectionTests {
  let folder: TemporaryFolder
  let path: String

  init() throws {
    folder = try TemporaryFolder("ctfo-sql")
    path = folder.path("test.sqlite")
  }

  @Test func aStatementIsPreparedOncePerConnection() throws {
    let db = try Connection(path: path, role: .writer)
    let first = try db.statement("SELECT 1")
    #expect(try db.statement("SELECT 1") === first)
    #expect(try db.statement("SELECT 2") !== first)
    let other = try Connection(path: path, role: .writer)
    #expect(try other.statement("SELECT 1") !== first)
  }

  @Test func textIsBoundWholeWithNULsAndEmptyIsNotNull() throws {
    let db = try Connection(path: path, role: .writer)
    try db.execute("CREATE TABLE t (v TEXT)")
    try db.run("INSERT INTO t (v) VALUES (?), (?), (?)", [.text("a\u{0}b"), .text(""), .null])
    let rows = try db.rows("SELECT v, LENGTH(CAST(v AS BLOB)), v IS NULL FROM t ORDER BY rowid") {
      ($0.text(0), $0.integer(1), $0.integer(2))
    }
    #expect(rows.map(\.0) == ["a\u{0}b", "", nil])
    #expect(rows.map(\.1) == [3, 0, 0])
    #expect(rows.map(\.2) == [0, 0, 1])
  }

  @Test func aTransactionCommitsOrRollsBackWhole() throws {
    struct Refused: Error {}
    let db = try Connection(path: path, role: .writer)
    try db.execute("CREATE TABLE t (v INTEGER)")
    #expect(throws: Refused.self) {
      try db.transaction(immediate: true) {
        try db.run("INSERT INTO t (v) VALUES (1)")
        #expect(db.isInTransaction)
        throw Refused()
      }
    }
    #expect(!db.isInTransaction)
    #expect(try db.rows("SELECT COUNT(*) FROM t") { $0.integer(0) } == [0])
    // A transaction inside another joins it: its rows go with the outer commit.
    try db.transaction(immediate: true) {
      try db.run("INSERT INTO t (v) VALUES (2)")
      try db.transaction(immediate: false) { try db.run("INSERT INTO t (v) VALUES (3)") }
      #expect(db.isInTransaction)
    }
    #expect(try db.rows("SELECT v FROM t ORDER BY v") { $0.integer(0) } == [2, 3])
  }

  @Test func aReadOnlyConnectionReadsAndRefusesWrites() throws {
    do {
      let writer = try Connection(path: path, role: .writer)
      try writer.execute("CREATE TABLE t (v INTEGER); INSERT INTO t (v) VALUES (7);")
    }
    let reader = try Connection(path: path, role: .readOnly)
    #expect(try reader.rows("SELECT v FROM t") { $0.integer(0) } == [7])
    let error = try #require(throws: SQLiteError.self) {
      try reader.run("INSERT INTO t (v) VALUES (8)")
    }
    #expect(error.code & 0xFF == 8, "SQLITE_READONLY, not \(error)")
  }

  @Test func aMissingDatabaseIsNotCreatedButForTheWriter() throws {
    #expect(throws: SQLiteError.self) { try Connection(path: path, role: .readOnly) }
    #expect(throws: SQLiteError.self) { try Connection(path: path, role: .reader) }
    #expect(!FileManager.default.fileExists(atPath: path))
    _ = try Connection(path: path, role: .writer)
    #expect(FileManager.default.fileExists(atPath: path))
  }
}

/// The writer's WAL at close: a few frames stay in it (as durable, and cheaper than a
/// checkpoint), more are checkpointed into the database and the WAL goes.
@Suite struct WALAtCloseTests {
  let folder: TemporaryFolder
  let path: String

  init() throws {
    folder = try TemporaryFolder("ctfo-sql")
    path = folder.path("wal.sqlite")
  }

  private var walSize: Int? {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
  }

  private func write(rows: Int, bytes: Int) throws {
    let db = try Connection(path: path, role: .writer)
    try db.execute("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (v TEXT);")
    try db.transaction(immediate: true) {
      for _ in 0..<rows {
        try db.run("INSERT INTO t (v) VALUES (?)", [.text(String(repeating: "x", count: bytes))])
      }
    }
  }

  @Test func aFewFramesStayInTheWALAndAreRead() throws {
    try write(rows: 1, bytes: 10)
    #expect((walSize ?? 0) > 0, "the WAL was checkpointed and deleted at close")
    let reader = try Connection(path: path, role: .readOnly)
    #expect(try reader.rows("SELECT COUNT(*) FROM t") { $0.integer(0) } == [1])
  }

  @Test func manyFramesAreCheckpointedAtClose() throws {
    // About 200 pages of 4 KiB: past what stays at close, short of SQLite's own checkpoint.
    try write(rows: 200, bytes: 3_000)
    #expect(walSize == nil, "the WAL stayed: \(walSize ?? 0) bytes")
    let reader = try Connection(path: path, role: .readOnly)
    #expect(try reader.rows("SELECT COUNT(*) FROM t") { $0.integer(0) } == [200])
  }
}
