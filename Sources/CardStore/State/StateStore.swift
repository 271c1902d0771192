import FeedCore
import StateFile
import GRDB

/// History, settings, undo tombstones and the reaction outbox in the state database.
///
/// Reads are synchronous and fast. Writes are synchronous too; the UI sends them through a
/// `StateWriter` so a keypress never waits for the disk.
///
/// ```swift
/// let state = StateStore(database: database)
/// var (window, launchEffects) = try state.launchUndo(configuration: config, time: now)
/// try state.append([HistoryEntry(index: try state.nextHistoryIndex(), ...)])
/// ```
public struct StateStore: Sendable {
  let database: StateDatabase

  public init(database: StateDatabase) {
    self.database = database
  }

  // MARK: Settings

  /// The types the user turned off; every other type, new ones included, is enabled.
  public func disabledTypes() throws -> Set<String> {
    try database.pool.read { db in
      Set(try String.fetchAll(db, sql: StateSchema.disabledTypesSQL))
    }
  }

  public func setEnabled(_ type: String, _ enabled: Bool, time: Double = 0) throws {
    try apply(StateChange(enabled: [type: enabled], time: time))
  }

  // MARK: History

  /// The newest `limit` history entries with an index below `before`, newest first.
  public func history(limit: Int, before: Int = .max) throws -> [HistoryEntry] {
    try database.pool.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT idx, card_id, type, title, shown_at, reaction FROM history
          WHERE idx < ? ORDER BY idx DESC LIMIT ?
          """, arguments: [before, limit]
      ).map(Self.historyEntry)
    }
  }

  /// The index the next card shown gets: one past the newest entry, 0 for none.
  public func nextHistoryIndex() throws -> Int {
    try database.pool.read { db in
      try Int.fetchOne(db, sql: StateSchema.nextHistoryIndexSQL) ?? 0
    }
  }

  /// Appends history rows in one transaction (`ctfo next -n 30000`).
  public func append(_ entries: [HistoryEntry]) throws {
    try apply(StateChange(shown: entries, time: 0))
  }

  /// Sets or clears the reaction of the history row at `index`.
  public func setReaction(_ reaction: Reaction?, at index: Int) throws {
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE history SET reaction = ? WHERE idx = ?",
        arguments: [reaction?.rawValue, index])
    }
  }

  // MARK: Undo

  /// The persisted tombstones, oldest first.
  public func tombstones() throws -> [Tombstone] {
    try database.pool.read { db in
      try Row.fetchAll(
        db, sql: "SELECT history_idx, card_id, type, direction FROM tombstones ORDER BY seq"
      ).map {
        Tombstone(
          historyIndex: $0[0], cardID: $0[1], type: $0[2],
          direction: SwipeDirection(rawValue: $0[3]) ?? .right)
      }
    }
  }

  /// The undo window at launch: the persisted tombstones per `configuration.onLaunch`, with
  /// the launch's effects (commits, discards) already written.
  public func launchUndo(
    configuration: UndoConfiguration, time: Double
  ) throws -> (window: UndoWindow, effects: [UndoEffect]) {
    let launched = UndoWindow.launch(persisted: try tombstones(), configuration: configuration)
    try apply(StateChange(effects: launched.effects, time: time))
    return launched
  }

  /// The committed reactions not yet uploaded, oldest first.
  public func pendingReactionEvents(limit: Int = 1000) throws -> [ReactionEvent] {
    try database.pool.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT seq, history_idx, card_id, type, reaction, committed_at FROM reaction_events
          WHERE sent_at IS NULL ORDER BY seq LIMIT ?
          """, arguments: [limit]
      ).map {
        ReactionEvent(
          sequence: $0[0], historyIndex: $0[1], cardID: $0[2], type: $0[3],
          reaction: Reaction(rawValue: $0[4]) ?? .tfu, committedAt: $0[5])
      }
    }
  }

  // MARK: Writing

  /// Writes `change` in one transaction.
  public func apply(_ change: StateChange) throws {
    try database.pool.write { db in
      for effect in change.effects { try Self.write(effect, time: change.time, db) }
      let insert = try db.cachedStatement(sql: StateSchema.historyInsertSQL)
      for entry in change.shown {
        try insert.execute(arguments: [
          entry.index, entry.cardID, entry.type, entry.title, entry.shownAt,
          entry.reaction?.rawValue,
        ])
      }
      for (type, enabled) in change.enabled {
        let sql =
          enabled
          ? "DELETE FROM disabled_types WHERE name = ?"
          : "INSERT OR IGNORE INTO disabled_types (name) VALUES (?)"
        try db.execute(sql: sql, arguments: [type])
      }
    }
  }

  private static func write(_ effect: UndoEffect, time: Double, _ db: Database) throws {
    switch effect {
    case .entomb(let t):
      try db.execute(
        sql: "UPDATE history SET reaction = ? WHERE idx = ?",
        arguments: [t.direction.reaction.rawValue, t.historyIndex])
      try db.execute(
        sql: "INSERT INTO tombstones (history_idx, card_id, type, direction) VALUES (?, ?, ?, ?)",
        arguments: [t.historyIndex, t.cardID, t.type, t.direction.rawValue])
    case .commit(let t):
      try deleteTombstone(t, db)
      try db.execute(
        sql: """
          INSERT INTO reaction_events (history_idx, card_id, type, reaction, committed_at)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [t.historyIndex, t.cardID, t.type, t.direction.reaction.rawValue, time])
    case .discard(let t):
      try deleteTombstone(t, db)
    case .restore(let t):
      try deleteTombstone(t, db)
      try db.execute(
        sql: "UPDATE history SET reaction = NULL WHERE idx = ?", arguments: [t.historyIndex])
    case .replace, .refuseReplacement, .askUser:
      break
    }
  }

  private static func deleteTombstone(_ t: Tombstone, _ db: Database) throws {
    try db.execute(sql: "DELETE FROM tombstones WHERE history_idx = ?", arguments: [t.historyIndex])
  }

  private static func historyEntry(_ row: Row) -> HistoryEntry {
    HistoryEntry(
      index: row[0], cardID: row[1], type: row[2], title: row[3], shownAt: row[4],
      reaction: (row[5] as String?).flatMap(Reaction.init(rawValue:)))
  }
}
