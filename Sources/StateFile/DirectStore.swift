import CSQLiteExtras
import FeedCore
import GRDBSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state database over one plain SQLite connection, for a command that must start as
/// fast as fortune (`ctfo next`): no pool, no dispatch queues, no migrations.
///
/// It opens only a database that needs nothing done first: the schema is current, the card
/// indexes exist, and the index holds exactly the listed decks, at their positions, with the
/// size and mtime they have on disk and no problems to report. Otherwise `open` returns nil:
/// open `CardStore`'s `StateDatabase` (which migrates) and sync the decks, then open this
/// again.
///
/// ```swift
/// guard let store = try DirectStore.open(path: state, decks: decks) else { ... sync ... }
/// let card = try store.reader.card(type: "fact", ordinal: 0)
/// let shown = try store.appendShown([card!], time: now)
/// ```
public final class DirectStore {
  private let connection: OpaquePointer
  /// Reads cards on this store's connection.
  public let reader: CardReader

  /// The frames in the WAL after this connection's last commit (0 before any).
  private let walFrames = WALFrames()

  /// Up to this many frames (4 KiB each) stay in the WAL when the store closes; beyond, the
  /// close checkpoints them into the database and deletes the WAL, as SQLite does by default.
  ///
  /// Checkpointing at every close cost `ctfo next` three of its five fsyncs (the WAL before
  /// copying, the database after, the new WAL's header at the next open) for the one or two
  /// frames a run adds. Left in the WAL, they are as durable (the commit synced them) and the
  /// next opener reads them back into its index: at most 256 KiB. A large batch still leaves
  /// nothing behind, so no later opener reads megabytes of WAL.
  static let walFramesLeftAtClose: Int32 = 64

  private init(_ connection: OpaquePointer) throws {
    self.connection = connection
    reader = try CardReader(connection: connection, closesConnection: false)
    // Replaces SQLite's own hook, the automatic checkpoint: this store checkpoints at close.
    sqlite3_wal_hook(
      connection,
      { context, _, _, frames in
        Unmanaged<WALFrames>.fromOpaque(context!).takeUnretainedValue().count = frames
        return SQLITE_OK
      }, Unmanaged.passUnretained(walFrames).toOpaque())
  }

  deinit {
    if (1...Self.walFramesLeftAtClose).contains(walFrames.count) {
      _ = ctfo_sqlite_no_checkpoint_on_close(connection, 1)
    }
    sqlite3_close_v2(connection)
  }

  /// The store, or nil when the database is missing or needs a migration or a deck sync
  /// (or has deck problems to report).
  public static func open(path: String, decks: [String]) throws -> DirectStore? {
    guard access(path, F_OK) == 0 else { return nil }
    let store = try open(path: path)
    return try store.transaction(.deferred) { try store.isCurrent(decks: decks) } ? store : nil
  }

  /// The store of a database a `StateDatabase` has just migrated and synced.
  public static func open(path: String) throws -> DirectStore {
    let store = try DirectStore(
      try openSQLite(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX))
    // Not kept in the file: every connection says it (see StateDatabase).
    try SQLiteStatement(store.connection, "PRAGMA synchronous = FULL").run()
    return store
  }

  /// Every type with its metadata and number of cards, by name (as `CardStore`'s `DeckIndex.catalog()`).
  public func catalog() throws -> [TypeCount] {
    try SQLiteStatement(connection, StateSchema.catalogSQL).rows { row in
      TypeCount(
        type: CardType(
          name: row.text(0) ?? "", label: row.text(1), colour: row.text(2),
          description: row.text(3)),
        cards: Int(row.integer(4)))
    }
  }

  /// The types the user turned off (as `CardStore`'s `StateStore.disabledTypes()`).
  public func disabledTypes() throws -> Set<String> {
    Set(try SQLiteStatement(connection, StateSchema.disabledTypesSQL).rows { $0.text(0) ?? "" })
  }

  /// Appends a history row for each card, numbered after the newest row, in one
  /// transaction that takes the write lock first (so a running app cannot take the same
  /// numbers), or in the caller's `transaction`. Returns the rows written.
  public func appendShown(_ cards: [Card], time: Double) throws -> [HistoryEntry] {
    try transaction {
      let next = try SQLiteStatement(connection, StateSchema.nextHistoryIndexSQL)
      let first = try next.rows { Int($0.integer(0)) }.first ?? 0
      let entries = cards.enumerated().map { i, card in
        HistoryEntry(
          index: first + i, cardID: card.id, type: card.type, title: card.title, shownAt: time)
      }
      let insert = try SQLiteStatement(connection, StateSchema.historyInsertSQL)
      for entry in entries {
        try insert.run([
          .integer(Int64(entry.index)), .text(entry.cardID), .text(entry.type),
          .text(entry.title), .real(entry.shownAt), .null,
        ])
      }
      return entries
    }
  }

  /// How a transaction starts: taking the write lock at once, or only reading until it writes.
  public enum TransactionKind: Sendable { case immediate, deferred }

  /// Runs `body` in one transaction, committed when it returns and rolled back when it
  /// throws; inside another, in that one. `.immediate` (the default) takes the write lock
  /// first. Reads in one transaction also share one snapshot and one round of SQLite's locks
  /// (a deal of eight cards read outside one took eight rounds).
  public func transaction<T>(
    _ kind: TransactionKind = .immediate, _ body: () throws -> T
  ) throws -> T {
    guard sqlite3_get_autocommit(connection) != 0 else { return try body() }
    try SQLiteStatement(connection, kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN").run()
    do {
      let result = try body()
      try SQLiteStatement(connection, "COMMIT").run()
      return result
    } catch {
      sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  /// Whether nothing needs doing first: schema, card indexes and decks as a sync leaves them.
  private func isCurrent(decks paths: [String]) throws -> Bool {
    let applied = try? SQLiteStatement(connection, "SELECT identifier FROM grdb_migrations")
      .rows { $0.text(0) ?? "" }
    guard let applied, Set(applied) == Set(StateSchema.migrations) else { return false }
    let names = StateSchema.cardIndexNames.map { "'\($0)'" }.joined(separator: ", ")
    let indexes = try SQLiteStatement(
      connection, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN (\(names))"
    ).rows { $0.integer(0) }
    guard indexes.first == Int64(StateSchema.cardIndexNames.count) else { return false }
    var seen = Set<String>()
    let listed = paths.filter { seen.insert($0).inserted }
    let indexed = try SQLiteStatement(
      connection, "SELECT path, position, size, mtime, problems FROM decks"
    ).rows { row in
      (path: row.text(0) ?? "", position: Int(row.integer(1)), size: row.integer(2),
       mtime: row.real(3), problems: row.text(4) ?? "")
    }
    guard indexed.count == listed.count else { return false }
    let byPath = Dictionary(indexed.map { ($0.path, $0) }) { a, _ in a }
    for (position, path) in listed.enumerated() {
      guard let deck = byPath[path], deck.position == position, deck.problems == "[]",
        let file = FileStamp.ofReadable(path), file.size == deck.size, file.mtime == deck.mtime
      else { return false }
    }
    return true
  }

  // MARK: The config file as last read

  /// The lookahead recorded for the config file at `path` when it had `stamp`; nil when it
  /// was last read with another stamp, or never: then it must be read (and checked) again.
  public func configLookahead(path: String, stamp: FileStamp) throws -> Int? {
    let query = try SQLiteStatement(
      connection, "SELECT size, mtime, inode, lookahead FROM config_reads WHERE path = ?")
    return try query.rows([.text(path)]) { row -> Int? in
      let recorded = FileStamp(
        size: row.integer(0), mtime: row.real(1), inode: UInt64(bitPattern: row.integer(2)))
      return recorded == stamp ? Int(row.integer(3)) : nil
    }.first ?? nil
  }

  /// Records that the config file at `path`, with `stamp`, was read and gave `lookahead`.
  public func recordConfig(path: String, stamp: FileStamp, lookahead: Int) throws {
    let upsert = try SQLiteStatement(
      connection,
      """
      INSERT INTO config_reads (path, size, mtime, inode, lookahead) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (path) DO UPDATE SET
        size = excluded.size, mtime = excluded.mtime, inode = excluded.inode,
        lookahead = excluded.lookahead
      """)
    try upsert.run([
      .text(path), .integer(stamp.size), .real(stamp.mtime),
      .integer(Int64(bitPattern: stamp.inode)), .integer(Int64(lookahead)),
    ])
  }
}

/// The WAL hook's report, read when the store closes.
private final class WALFrames {
  var count: Int32 = 0
}
