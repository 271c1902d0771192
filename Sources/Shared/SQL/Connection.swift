import CSQLite
import CSQLiteExtras
import YieldToUser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One SQLite connection with its prepared statements, kept for the connection's life.
///
/// Not thread-safe: a `Lane` serialises its use. Every connection waits up to 5 s for a lock
/// another process holds (the app beside `ctfo next`).
public final class Connection {
  /// How the connection is used: the writer keeps a small WAL at close (see `WALFrames`).
  public enum Role { case writer, reader, readOnly }

  public let handle: OpaquePointer
  private var statements: [String: Statement] = [:]
  private let walFrames: WALFrames?

  public init(path: String, role: Role) throws(SQLiteError) {
    let access =
      switch role {
      case .writer: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      case .reader: SQLITE_OPEN_READWRITE
      case .readOnly: SQLITE_OPEN_READONLY
      }
    var connection: OpaquePointer?
    guard sqlite3_open_v2(path, &connection, access | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let connection
    else {
      defer { sqlite3_close_v2(connection) }
      throw SQLiteError(connection)
    }
    handle = connection
    sqlite3_busy_timeout(connection, 5_000)
    // A background thread's statements give the CPU up to the UI (Courtesy).
    ctfo_sqlite_yield_points(connection, 1_000)
    walFrames = role == .writer ? WALFrames(connection) : nil
  }

  deinit {
    statements.removeAll()
    walFrames?.prepareClose(handle)
    sqlite3_close_v2(handle)
  }

  /// The statement for `sql`, prepared once per connection.
  public func statement(_ sql: String) throws(SQLiteError) -> Statement {
    if let statement = statements[sql] { return statement }
    let statement = try Statement(handle, sql)
    statements[sql] = statement
    return statement
  }

  /// Runs one statement with `values` bound.
  public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
    try statement(sql).run(values)
  }

  /// The rows of one query, read by `row`.
  public func rows<T>(
    _ sql: String, _ values: [SQLiteValue] = [], _ row: (Statement) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> [T] {
    try statement(sql).rows(values, row)
  }

  /// Runs `sql`, which may hold several statements (a migration), without caching it.
  public func execute(_ sql: String) throws(SQLiteError) {
    defer { Courtesy.yieldPoint() }  // a COMMIT writes its pages here
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw SQLiteError(handle)
    }
  }

  /// Checkpoints the WAL if a background thread's commit left the checkpoint for later (see
  /// `WALFrames`). Background work calls it between two units, after a pause in the keys.
  public func checkpointIfDue() {
    walFrames?.checkpointIfDue(handle)
  }

  public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
  /// The rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// Runs `body` in one transaction, committed when it returns and rolled back when it
  /// throws; inside another, in that one. `immediate` takes the write lock first, so a write
  /// never fails on a snapshot another process made stale.
  public func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
    guard !isInTransaction else { return try body() }
    try run(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      if isInTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
      throw error
    }
  }
}

/// The frames in the writer's WAL after its last commit, told by SQLite's WAL hook, and the
/// checkpoints that hook runs.
///
/// Up to `leftAtClose` frames (4 KiB each) stay in the WAL when the connection closes; beyond,
/// the close checkpoints them into the database and deletes the WAL, as SQLite does by default.
/// Checkpointing at every close cost a short run (`ctfo next`) most of its fsyncs for
/// the one or two frames it adds. Left in the WAL they are as durable (the commit synced
/// them), and the next opener reads them back: at most 256 KiB. The hook replaces SQLite's
/// automatic checkpoint, so it checkpoints at SQLite's default threshold itself, which keeps
/// the WAL of a long run (the app) bounded.
///
/// A checkpoint of 1,000 frames runs long with no yield point inside: on a background thread
/// (a pull, a flush) it is left for `checkpointIfDue`, which the thread calls after its next
/// pause in the user's keys, unless the WAL has grown past `deferredUntil`.
private final class WALFrames {
  static let leftAtClose: Int32 = 64
  static let checkpointAt: Int32 = 1_000
  static let deferredUntil: Int32 = 4_000

  var count: Int32 = 0
  /// A background thread's commit passed `checkpointAt` and left the checkpoint for later.
  var due = false

  init(_ connection: OpaquePointer) {
    sqlite3_wal_hook(
      connection,
      { context, connection, name, frames in
        let walFrames = Unmanaged<WALFrames>.fromOpaque(context!).takeUnretainedValue()
        walFrames.count = frames
        guard frames >= WALFrames.checkpointAt else { return SQLITE_OK }
        if Courtesy.isBackground, frames < WALFrames.deferredUntil {
          walFrames.due = true
        } else {
          walFrames.due = false
          sqlite3_wal_checkpoint(connection, name)
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  func checkpointIfDue(_ connection: OpaquePointer) {
    guard due else { return }
    due = false
    sqlite3_wal_checkpoint(connection, nil)
  }

  /// Asks SQLite not to checkpoint at close when the WAL holds only a few frames: as this
  /// connection's last commit left it, or, when it committed nothing (a command that only
  /// reads), as the WAL file's size says. Without the second, a `ctfo types` after a
  /// `ctfo next` checkpointed the frames the other left, with three syncs.
  func prepareClose(_ connection: OpaquePointer) {
    let frames = count > 0 ? Int(count) : Self.framesInFile(of: connection)
    if frames <= Int(Self.leftAtClose) {
      _ = ctfo_sqlite_no_checkpoint_on_close(connection, 1)
    }
  }

  /// The frames the WAL file has room for, counted in 4 KiB pages (SQLite's default, and the
  /// state database's): more than it holds when a restart left old frames past its end.
  private static func framesInFile(of connection: OpaquePointer) -> Int {
    guard let database = sqlite3_db_filename(connection, "main") else { return 0 }
    var info = stat()
    guard stat(String(cString: database) + "-wal", &info) == 0 else { return 0 }
    return max(0, (Int(info.st_size) - 32) / (4_096 + 24))
  }
}
