import FeedCore
import GRDBSQLite
import Synchronization

/// Reads one card by (type, ordinal) on a connection of its own: the query every preparation
/// runs, kept off GRDB's connection pool.
///
/// A read through the pool costs more in dispatch queues and locks than the indexed SELECT
/// itself (measured: about a quarter of `ctfo next`'s CPU). This reader holds one read-only
/// connection and one prepared statement behind a mutex held only for the query. The index is
/// synced before the feed starts and not written while it runs, so the connection's snapshot
/// is the one the catalog was read from.
public final class CardReader: Sendable {
  private struct Connection {
    var database: OpaquePointer?
    var statement: OpaquePointer?
  }

  private let connection: Mutex<Connection>

  /// Opens `path` read-only.
  public init(path: String) throws {
    var database: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &database, flags, nil) == SQLITE_OK else {
      defer { sqlite3_close(database) }
      throw CardReaderError(message: Self.message(database))
    }
    sqlite3_busy_timeout(database, 5_000)
    var statement: OpaquePointer?
    let sql = "SELECT \(DeckIndex.cardColumns) FROM cards WHERE type = ? AND ordinal = ?"
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
      defer { sqlite3_close(database) }
      throw CardReaderError(message: Self.message(database))
    }
    connection = Mutex(Connection(database: database, statement: statement))
  }

  deinit {
    connection.withLock {
      sqlite3_finalize($0.statement)
      sqlite3_close($0.database)
    }
  }

  /// The card of `type` at `ordinal`, or nil past the end.
  public func card(type: String, ordinal: Int) throws -> Card? {
    try connection.withLock { c in
      let statement = c.statement
      defer { sqlite3_reset(statement) }
      sqlite3_bind_text(statement, 1, type, -1, Self.transient)
      sqlite3_bind_int64(statement, 2, Int64(ordinal))
      switch sqlite3_step(statement) {
      case SQLITE_ROW:
        return Card(
          id: Self.text(statement, 0) ?? "", type: Self.text(statement, 1) ?? type,
          title: Self.text(statement, 2), body: Self.text(statement, 3) ?? "",
          source: Self.text(statement, 4), url: Self.text(statement, 5),
          reveal: Self.text(statement, 6))
      case SQLITE_DONE:
        return nil
      default:
        throw CardReaderError(message: Self.message(c.database))
      }
    }
  }

  /// SQLite's SQLITE_TRANSIENT: copy the bound text now.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private static func text(_ statement: OpaquePointer?, _ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(statement, column) else { return nil }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  private static func message(_ database: OpaquePointer?) -> String {
    database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
  }
}

/// SQLite refused to open the database or to answer the card query.
public struct CardReaderError: Error, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { "cannot read cards: \(message)" }
}
