import GRDBSQLite

/// A prepared statement on a plain SQLite connection: the few calls `CardReader` and
/// `DirectStore` make without GRDB. Not thread-safe; its owner serialises the calls.
struct SQLiteStatement: ~Copyable {
  let connection: OpaquePointer
  private let handle: OpaquePointer

  init(_ connection: OpaquePointer, _ sql: String) throws(SQLiteError) {
    var handle: OpaquePointer?
    guard sqlite3_prepare_v2(connection, sql, -1, &handle, nil) == SQLITE_OK, let handle else {
      throw SQLiteError(connection)
    }
    self.connection = connection
    self.handle = handle
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to the parameters 1, 2, ... (after a reset).
  func bind(_ values: [SQLiteValue]) {
    sqlite3_reset(handle)
    for (i, value) in values.enumerated() {
      let n = Int32(i + 1)
      switch value {
      case .text(let text): sqlite3_bind_text(handle, n, text, -1, Self.transient)
      case .integer(let number): sqlite3_bind_int64(handle, n, number)
      case .real(let number): sqlite3_bind_double(handle, n, number)
      case .null: sqlite3_bind_null(handle, n)
      }
    }
  }

  /// Steps once: true for a row, false when done.
  func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = SQLiteError(connection)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Runs to the end, ignoring rows; resets for the next use.
  func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Every row, read by `row`; resets afterwards.
  func rows<T>(_ values: [SQLiteValue] = [], _ row: (borrowing SQLiteStatement) -> T) throws(SQLiteError) -> [T] {
    bind(values)
    defer { sqlite3_reset(handle) }
    var result: [T] = []
    while try step() { result.append(row(self)) }
    return result
  }

  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func reset() { sqlite3_reset(handle) }

  /// SQLite's SQLITE_TRANSIENT: copy the bound text now.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

enum SQLiteValue {
  case text(String)
  case integer(Int64)
  case real(Double)
  case null

  static func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
}

/// Opens a plain connection with SQLite's `flags`; throws SQLite's reason when it refuses.
func openSQLite(_ path: String, flags: Int32) throws(SQLiteError) -> OpaquePointer {
  var connection: OpaquePointer?
  guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK,
    let connection
  else {
    defer { sqlite3_close(connection) }
    throw SQLiteError(connection)
  }
  // Another ctfo process (the app beside `ctfo next`) may hold the write lock briefly.
  sqlite3_busy_timeout(connection, 5_000)
  return connection
}

/// SQLite refused a plain connection's open or query (its message).
public struct SQLiteError: Error, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { message }

  init(message: String) { self.message = message }

  init(_ connection: OpaquePointer?) {
    message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
  }
}
