import CSQLite
import YieldToUser

/// A prepared statement of one `Connection`: bind, step, read columns. Not thread-safe; its
/// connection's `Lane` serialises the calls.
public final class Statement {
  private let connection: OpaquePointer
  private let handle: OpaquePointer

  init(_ connection: OpaquePointer, _ sql: String) throws(SQLiteError) {
    var handle: OpaquePointer?
    guard
      sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        == SQLITE_OK, let handle
    else { throw SQLiteError(connection) }
    self.connection = connection
    self.handle = handle
  }

  deinit { sqlite3_finalize(handle) }

  /// Runs to the end with `values` bound to the parameters 1, 2, ..., ignoring rows.
  public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    bind(values)
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Every row, read by `row`, with `values` bound to the parameters 1, 2, ...
  public func rows<T>(
    _ values: [SQLiteValue] = [], _ row: (Statement) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> [T] {
    bind(values)
    defer { sqlite3_reset(handle) }
    var result: [T] = []
    while try step() { result.append(try row(self)) }
    return result
  }

  public func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  public func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  public func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
  public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// An integer column that may be NULL.
  public func optionalInteger(_ column: Int32) -> Int? {
    isNull(column) ? nil : Int(integer(column))
  }

  private func bind(_ values: [SQLiteValue]) {
    sqlite3_reset(handle)
    for (i, value) in values.enumerated() {
      let n = Int32(i + 1)
      switch value {
      case .text(let text): bind(text, at: n)
      case .integer(let number): sqlite3_bind_int64(handle, n, number)
      case .real(let number): sqlite3_bind_double(handle, n, number)
      case .null: sqlite3_bind_null(handle, n)
      }
    }
  }

  /// Binds `text` with its length in bytes: a NUL inside never cuts it short.
  private func bind(_ text: String, at n: Int32) {
    var text = text
    text.withUTF8 { bytes in
      // An empty buffer may have no address, and a NULL pointer would bind NULL.
      guard let start = bytes.baseAddress else {
        sqlite3_bind_text(handle, n, "", 0, Self.transient)
        return
      }
      _ = start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text64(
          handle, n, $0, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
      }
    }
  }

  /// Steps once: true for a row, false when done. Each step is a yield point (Courtesy): the
  /// progress handler fires only within a statement of 1,000 instructions or more, and a pull's
  /// chunk runs hundreds of short ones (a chunk held the CPU too long without one).
  private func step() throws(SQLiteError) -> Bool {
    defer { Courtesy.yieldPoint() }
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw SQLiteError(connection)
    }
  }

  /// SQLite's SQLITE_TRANSIENT: copy the bound text now.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement's parameter.
public enum SQLiteValue: Sendable {
  case text(String)
  case integer(Int64)
  case real(Double)
  case null

  public static func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
  public static func integer(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
}
