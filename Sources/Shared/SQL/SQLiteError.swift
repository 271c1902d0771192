import CSQLite

/// SQLite refused an open, a statement or a commit (its message and result code).
public struct SQLiteError: Error, Hashable, CustomStringConvertible {
  public var message: String
  /// SQLite's extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
  public var code: Int32
  public var description: String { message }

  public init(_ connection: OpaquePointer?) {
    message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    code = connection.map { sqlite3_extended_errcode($0) } ?? SQLITE_NOMEM
  }
}
