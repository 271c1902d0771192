import CSQLite

/// SQLite refused an open, a statement or a commit (its message and result code).
public struct SQLiteError: Error, Hashable, CustomStringConvertible {
  public var message: String
  /// SQLite's extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
  public var code: Int32
  public var description: String { message }

  init(_ connection: OpaquePointer?) {
    message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    code = connection.map { sqlite3_extended_errcode($0) } ?? SQLITE_NOMEM
  }
}

/// The state database cannot be used as it is.
public enum StoreError: Error, Hashable, CustomStringConvertible {
  /// A newer ctfo wrote the schema (`PRAGMA user_version` beyond the migrations known here).
  case newerSchema(path: String, version: Int, known: Int)
  /// The folder of the database, or its lock file, could not be made or opened.
  case file(path: String, reason: String)

  public var description: String {
    switch self {
    case .newerSchema(let path, let version, let known):
      "\(path) was written by a newer ctfo (schema version \(version); this one knows up to "
        + "\(known)): update ctfo"
    case .file(let path, let reason): "\(path): \(reason)"
    }
  }
}
