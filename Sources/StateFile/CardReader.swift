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
  /// Used only under the mutex; a connection shared with a `DirectStore` is opened in
  /// SQLite's serialised mode, so the store's own calls on it are safe too.
  private struct Reader: ~Copyable, @unchecked Sendable {
    var statement: SQLiteStatement
    let closesConnection: Bool

    deinit { if closesConnection { sqlite3_close_v2(statement.connection) } }
  }

  private let reader: Mutex<Reader>

  /// Opens `path` read-only.
  public convenience init(path: String) throws {
    let connection: OpaquePointer
    do {
      connection = try openSQLite(path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
    } catch {
      throw CardReaderError(message: error.message)
    }
    try self.init(connection: connection, closesConnection: true)
  }

  /// Reads through `connection` (a `DirectStore`'s), closing it at the end when asked to.
  init(connection: OpaquePointer, closesConnection: Bool) throws {
    do {
      let sql = "SELECT \(StateSchema.cardColumns) FROM cards WHERE type = ? AND ordinal = ?"
      let statement = try SQLiteStatement(connection, sql)
      reader = Mutex(Reader(statement: statement, closesConnection: closesConnection))
    } catch {
      if closesConnection { sqlite3_close_v2(connection) }
      throw CardReaderError(message: error.message)
    }
  }

  /// The card of `type` at `ordinal`, or nil past the end.
  public func card(type: String, ordinal: Int) throws -> Card? {
    try reader.withLock { r throws(CardReaderError) -> Card? in
      do throws(SQLiteError) {
        let cards = try r.statement.rows([.text(type), .integer(Int64(ordinal))]) { row in
          Card(
            id: row.text(0) ?? "", type: row.text(1) ?? type, title: row.text(2),
            body: row.text(3) ?? "", source: row.text(4), url: row.text(5), reveal: row.text(6))
        }
        return cards.first
      } catch {
        throw CardReaderError(message: error.message)
      }
    }
  }
}

/// SQLite refused to open the database or to answer the card query.
public struct CardReaderError: Error, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { "cannot read cards: \(message)" }
}
