import SQL
import Synchronization
import YieldToUser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state database: one SQLite file holding the deck index, history, settings and undo
/// tombstones, and the reaction outbox.
///
/// WAL mode with `synchronous = FULL`, so a committed transaction survives a power cut. It
/// has three connections, each behind a mutex: the writer, a reader for the thread that
/// reserved it (`reserveReader`, the app's UI thread) and one for every other thread (both
/// opened on first use), so that a read on the UI thread never waits behind a write
/// transaction nor a background read (an analytics batch). A read made inside
/// `transaction { }` runs on the writer, in that transaction. Opening runs the pending
/// migrations and builds any missing card index. Release it before the process exits (not a
/// global of `main.swift`): its close leaves a short run's few WAL frames in place and
/// checkpoints anything larger, which no exit without the close does.
///
/// ```swift
/// let database = try StateDatabase(path: home + "/state/ctfo.sqlite")
/// let index = DeckIndex(database: database)
/// let state = StateStore(database: database)
/// ```
public final class StateDatabase: Sendable {
  /// The database file.
  public let path: String
  private let writer: Lane
  private let reader: Lane
  /// The reads of every thread but the one that reserved `reader` (the app's UI thread): the
  /// analytics sinks' batches, a pull's look-ups. Apart, so that a key never waits behind them.
  private let backgroundReader: Lane
  /// The thread whose reads have `reader` to themselves (0: none reserved; then every thread
  /// shares it, as a command's one thread does).
  private let readerThread = Atomic<UInt>(0)
  /// Whether reads go to the writer: one connection, for a command on one thread.
  private let readsOnWriter: Bool

  /// Opens (or creates, with its folder) the database at `path` and migrates it.
  /// `oneConnection` makes every read use the writer's connection: right for a command that
  /// runs on one thread (it saves opening a second connection, a fair part of a short command
  /// such as `ctfo history`), wrong for the app, whose UI thread must not wait behind a write.
  ///
  /// - Throws: `StoreError.newerSchema` for a database a newer ctfo wrote, `StoreError.file`
  ///   when the folder cannot be made, `SQLiteError` when SQLite refuses the file.
  public init(path: String, oneConnection: Bool = false) throws {
    self.path = path
    readsOnWriter = oneConnection
    try Self.makeFolders(to: path)
    Self.makePrivate(path)
    let connection = try Connection(path: path, role: .writer)
    // secure_delete = FAST: Debian's SQLite overwrites every freed page by default, so emptying
    // a delivered outbox wrote every one of its pages again (OutboxStorageTests).
    try connection.execute(
      """
      PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;
      PRAGMA cache_size = -32768; PRAGMA secure_delete = FAST;
      """)
    try Migrations.migrate(connection, path: path)
    try Migrations.ensureCardIndexes(connection)
    writer = Lane(connection) { try Connection(path: path, role: .writer) }
    reader = Lane(nil) { try Connection(path: path, role: .reader) }
    backgroundReader = Lane(nil) { try Connection(path: path, role: .reader) }
  }

  deinit {
    // The writer closes last, so that its close decides on the checkpoint (see `WALFrames`).
    reader.close()
    backgroundReader.close()
    writer.close()
  }

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`), committed when it returns and
  /// rolled back when it throws. Every store call inside (history, deck reads, cards) joins
  /// it, so a deal's reads and its history rows see and write one state.
  ///
  /// Never call `DeckIndex.sync` inside: its import writes from a thread of its own.
  public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
    try write { _ in try body() }
  }

  /// Runs `body` in one read transaction on the writer's connection: its reads (a deal's
  /// cards) see one snapshot and take SQLite's locks once, and no write lock is taken, so a
  /// reader never holds up another process's write.
  public func snapshot<T: Sendable>(_ body: () throws -> T) throws -> T {
    try writer.run { db in try db.transaction(immediate: false) { try body() } }
  }

  /// The value of a pragma on the writing connection (`journal_mode`, `synchronous`, ...).
  public func pragma(_ name: String) throws -> String? {
    try writer.run { db in try db.rows("PRAGMA \(name)") { $0.text(0) }.first ?? nil }
  }

  /// SQLite's `PRAGMA data_version` on the reading connection: it changes when another
  /// connection (this process's writer, or another process) has committed since the last look.
  public func dataVersion() throws -> Int64 {
    try read { db in try db.rows("PRAGMA data_version") { $0.integer(0) }.first ?? 0 }
  }

  /// SQLite's `PRAGMA integrity_check`: "ok" when the file is sound.
  public func integrityCheck() throws -> String {
    try read { db in
      try db.rows("PRAGMA integrity_check") { $0.text(0) ?? "" }.joined(separator: "\n")
    }
  }

  /// Runs `body` on the reader (the reserving thread's, see `reserveReader`; another thread's
  /// is a connection of its own), or on the writer within the caller's transaction.
  func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    if readsOnWriter || writer.isHeldByCurrentThread { return try writer.run(body) }
    let reserved = readerThread.load(ordering: .relaxed)
    let own = reserved == 0 || reserved == UInt(bitPattern: Int(bitPattern: pthread_self()))
    return try (own ? reader : backgroundReader).run(body)
  }

  /// Gives the calling thread's reads the reader to themselves (the app's UI thread, at
  /// launch): every other thread's reads then share a connection of their own.
  public func reserveReader() {
    readerThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
  }

  /// Runs `body` on the writer, outside a transaction: the reads of a caller that writes next
  /// (a sync), so that a short run (`ctfo next`) never opens the reader.
  func readOnWriter<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    try writer.run(body)
  }

  /// Runs `body` in a write transaction on the writer (or in the caller's).
  func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    try writer.run { db in try db.transaction(immediate: true) { try body(db) } }
  }

  /// Runs `body` in a write transaction whose commit does not wait for the disk (`synchronous
  /// = NORMAL` for it alone): for work that is done again if lost, such as a pull's chunks
  /// (the pull's last transaction makes them durable: its fsync covers the whole WAL) or an
  /// analytics acknowledgement. A commit a card waits for then never waits behind its fsync.
  func writeWithoutWaitingForTheDisk<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    try writer.run { db in
      guard !db.isInTransaction else { return try body(db) }
      try db.execute("PRAGMA synchronous = NORMAL")
      defer { try? db.execute("PRAGMA synchronous = FULL") }  // The writer's own, from `init`.
      return try db.transaction(immediate: true) { try body(db) }
    }
  }

  /// Between two units of background work that writes here: waits for a pause in the user's
  /// keys (`Courtesy.pause`), then runs the WAL checkpoint a background commit left for it.
  public func pause() throws {
    Courtesy.pause()
    try writer.run { $0.checkpointIfDue() }
  }

  /// Whether the calling thread is inside `transaction` (or another write).
  var isWritingOnCurrentThread: Bool { writer.isHeldByCurrentThread }

  /// `mkdir -p` of the folder holding `path`.
  /// Creates the database file readable by its owner only, or takes group and other access
  /// away from one made before: it holds the server token and the history. SQLite gives the
  /// WAL and shared-memory files the database's mode.
  ///
  /// An existing file is never opened here: closing any descriptor of a file drops every POSIX
  /// lock the process holds on it, SQLite's included, so a second `StateDatabase` in a process
  /// (tests and `ctfo-bench` open two) let another process's sqlite3, finding itself the last,
  /// checkpoint and delete the WAL this process went on writing to (DECISIONS.md, "The state
  /// database deletes with `secure_delete = FAST`, and is never opened outside SQLite").
  private static func makePrivate(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      // A new file: no connection of this process has it open, so its close drops no lock.
      let fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      if fd >= 0 { close(fd) }
      return  // Otherwise SQLite's open reports why.
    }
    guard info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else { return }
    let mode = info.st_mode & 0o700
    for suffix in ["", "-wal", "-shm"] { _ = chmod(path + suffix, mode) }
  }

  private static func makeFolders(to path: String) throws {
    var folder = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/").dropLast() {
      folder += "/" + String(part)  // String + Substring is generic: a conformance scan
      guard mkdir(folder, 0o755) != 0, errno != EEXIST else { continue }
      throw StoreError.file(path: folder, reason: String(cString: strerror(errno)))
    }
  }
}
