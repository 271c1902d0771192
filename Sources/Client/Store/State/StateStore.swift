import FeedCore
import SQL

/// History, settings, undo tombstones and the reaction outbox in the state database.
///
/// Reads are synchronous and fast. Writes are synchronous too; the UI sends them through a
/// `StateWriter` so a keypress never waits for the disk.
///
/// ```swift
/// let state = StateStore(database: database)
/// var (window, launchEffects) = try state.launchUndo(configuration: config, time: now)
/// let indices = try state.apply(StateChange(shown: [ShownRecord(card, shownAt: now)], time: now))
/// ```
public struct StateStore: Sendable {
  let database: StateDatabase
  /// Set when analytics are on (`[analytics]`, no `DO_NOT_TRACK`): each change then records
  /// its events in the outbox, in its own transaction. Nil records nothing at all.
  public var analytics: Outbox.Context?
  /// Set when a reaction hook is configured: each reaction a change makes final (committed,
  /// or dropped from the undo window at launch) is queued for it in the same transaction.
  public var hooks: Bool

  public init(database: StateDatabase, analytics: Outbox.Context? = nil, hooks: Bool = false) {
    self.database = database
    self.analytics = analytics
    self.hooks = hooks
  }

  // MARK: Settings

  /// The types the user turned off; every other type, new ones included, is enabled.
  public func disabledTypes() throws -> Set<String> {
    try database.read { db in
      Set(try db.rows("SELECT name FROM disabled_types") { $0.text(0) ?? "" })
    }
  }

  // MARK: History

  /// The newest `limit` history entries with an index below `before`, newest first. Cards an
  /// undo pushed back are left out until they are shown again (`ReturnQueue`).
  public func history(limit: Int, before: Int = .max) throws -> [HistoryEntry] {
    try database.read { db in
      try db.rows(
        """
        SELECT \(Self.historyColumns) FROM history
        WHERE idx < ? AND \(Self.listed) ORDER BY idx DESC LIMIT ?
        """, [.integer(before), .integer(limit)], Self.historyEntry)
    }
  }

  /// How many of the newest history rows a search reads: it answers as fast on a history of
  /// millions as on a short one.
  public static let searchDepth = 100_000

  /// The newest `limit` listed entries among the newest `searchDepth` rows whose title, or
  /// the body of whose card, holds `text` (ignoring the case of ASCII letters; `%` and `_`
  /// match themselves), newest first.
  public func history(limit: Int, matching text: String) throws -> [HistoryEntry] {
    try history(limit: limit, filter: HistoryFilter(), matching: text)
  }

  /// A LIKE pattern that finds `text` anywhere, its `%`, `_` and `\` escaped with `\`.
  static func likePattern(_ text: String) -> String {
    var pattern = "%"
    for character in text {
      if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
      pattern.append(character)
    }
    return pattern + "%"
  }

  /// How many cards the history lists. Rows are numbered from 0 without gaps and never
  /// deleted, so this is the newest number plus one, read from the index, however long it is,
  /// less the few cards waiting to come back.
  public func historyCount() throws -> Int {
    try database.read { db in
      let count = try db.rows(
        """
        SELECT COALESCE(MAX(idx) + 1, 0)
          - (SELECT COUNT(*) FROM return_queue WHERE place > 0) FROM history
        """
      ) { $0.integer(0) }
      return Int(count.first ?? 0)
    }
  }

  /// The cards that come back before any new card, first to return first: the card on screen
  /// at the last quit, then those an undo pushed back.
  public func returning() throws -> [HistoryEntry] {
    try database.read { db in
      try db.rows(
        """
        SELECT \(Self.historyColumns) FROM return_queue JOIN history ON idx = history_idx
        ORDER BY place
        """, [], Self.historyEntry)
    }
  }

  static let historyColumns = "idx, card_id, type, title, shown_at, reaction"
  /// The rows the history lists: all but the cards an undo pushed back.
  static let listed = "idx NOT IN (SELECT history_idx FROM return_queue WHERE place > 0)"

  /// Appends history rows in one transaction (`ctfo next -n 30000`); returns their indices.
  @discardableResult
  public func append(_ shown: [ShownRecord]) throws -> [Int] {
    try apply(StateChange(shown: shown, time: 0))
  }

  /// Appends a history row for each card, shown at `time`, in one transaction (or the
  /// caller's `StateDatabase.transaction`, with the deal's reads): `ctfo next`.
  ///
  /// The commit does not wait for the disk: a power cut in the next moments may forget that
  /// these cards were printed, and a later `ctfo next` may then print one again, which is
  /// all the row is for. Waiting was an `fdatasync` and a sync of the folder
  /// (DECISIONS.md, "A swipe never waits for its commit"). A crash of
  /// the process loses nothing, and the next checkpoint makes these rows durable.
  public func appendShown(_ cards: [Card], time: Double) throws -> [HistoryEntry] {
    let shown = cards.map { ShownRecord($0, shownAt: time) }
    let change = StateChange(shown: shown, time: 0)
    let indices = try database.writeWithoutWaitingForTheDisk { db in try writeRows(of: change, db) }
    return zip(shown, indices).map { $0.entry(at: $1) }
  }

  // MARK: Rounds

  /// Where the home's rounds stand, by ordinal in the deck index: each type's cards shown in
  /// its current round (cards no longer indexed left out), and the types shown in the current
  /// round of types. A new feed starts from it (`FeedEngine(resuming:)`).
  public func roundProgress() throws -> RoundProgress<Int> {
    try database.read { db in try Self.roundProgress(db) }
  }

  /// `roundProgress()` within a transaction of the caller's (the reading stats count from it).
  static func roundProgress(_ db: Connection) throws -> RoundProgress<Int> {
    var progress = RoundProgress<Int>()
    let seen = try db.rows(roundCardsQuery) { ($0.text(0) ?? "", Int($0.integer(1))) }
    for (type, ordinal) in seen { progress.seen[type, default: []].insert(ordinal) }
    progress.typesShown = Set(try db.rows("SELECT type FROM round_types") { $0.text(0) ?? "" })
    return progress
  }

  /// Each type's cards shown in its current round, by ordinal. The round's rows lead and each
  /// finds its card by id: `CROSS JOIN` keeps that order, where SQLite's planner, knowing no
  /// table's size, walked every card of the index at every launch instead.
  static let roundCardsQuery = """
    SELECT round_cards.type, cards.ordinal FROM round_cards
    CROSS JOIN cards ON cards.id = round_cards.card_id AND cards.type = round_cards.type
    WHERE cards.ordinal IS NOT NULL
    """

  /// Records the cards of `shown` in the home's rounds (`RoundProgress.shown`), inside the
  /// write transaction of their history rows, so two processes never lose each other's.
  /// Cards of a type the index does not hold (piped in) have no round to keep.
  private static func recordRounds(_ shown: [ShownRecord], _ db: Connection) throws {
    guard !shown.isEmpty else { return }
    let sizes = Dictionary(
      try db.rows("SELECT name, cards FROM card_types WHERE cards > 0") {
        ($0.text(0) ?? "", Int($0.integer(1)))
      }
    ) { a, _ in a }
    let disabled = try db.rows("SELECT name FROM disabled_types") { $0.text(0) ?? "" }
    let dealt = Set(sizes.keys).subtracting(disabled)
    var progress = RoundProgress<String>(
      typesShown: Set(try db.rows("SELECT type FROM round_types") { $0.text(0) ?? "" }))
    for type in Set(shown.map(\.type)) where sizes[type] != nil {
      progress.seen[type] = Set(
        try db.rows(
          """
          SELECT card_id FROM round_cards WHERE type = ?1 AND EXISTS (
            SELECT 1 FROM cards WHERE id = card_id AND cards.type = ?1 AND ordinal IS NOT NULL)
          """, [.text(type)]
        ) { $0.text(0) ?? "" })
    }
    let before = progress
    for record in shown {
      guard let size = sizes[record.type] else { continue }
      progress.shown(record.cardID, type: record.type, cards: size, types: dealt)
    }
    for (type, cards) in progress.seen.sorted(by: { $0.key < $1.key }) {
      try replace(
        cards, was: before.seen[type] ?? [], db,
        delete: ("DELETE FROM round_cards WHERE type = ?", [.text(type)]),
        insert: "INSERT OR IGNORE INTO round_cards (type, card_id) VALUES (?, ?)"
      ) { [.text(type), .text($0)] }
    }
    try replace(
      progress.typesShown, was: before.typesShown, db, delete: ("DELETE FROM round_types", []),
      insert: "INSERT OR IGNORE INTO round_types (type) VALUES (?)"
    ) { [.text($0)] }
  }

  /// Brings a round's rows from `was` to `rows`: the new ones added when none left, else all
  /// written again after `delete` (a round started over; rows of cards no longer indexed go
  /// with it).
  private static func replace(
    _ rows: Set<String>, was: Set<String>, _ db: Connection,
    delete: (sql: String, arguments: [SQLiteValue]), insert: String,
    values: (String) -> [SQLiteValue]
  ) throws {
    let grows = rows.isSuperset(of: was)
    if !grows { try db.run(delete.sql, delete.arguments) }
    let added = grows ? rows.subtracting(was) : rows
    guard !added.isEmpty else { return }
    let statement = try db.statement(insert)
    for row in added.sorted() { try statement.run(values(row)) }
  }

  // MARK: Undo

  /// The persisted tombstones, oldest first.
  public func tombstones() throws -> [Tombstone] {
    try database.read { db in
      try db.rows("SELECT history_idx, card_id, type, direction FROM tombstones ORDER BY seq") {
        Tombstone(
          historyIndex: Int($0.integer(0)), cardID: $0.text(1) ?? "", type: $0.text(2) ?? "",
          direction: SwipeDirection(rawValue: $0.text(3) ?? "") ?? .right)
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
    try database.read { db in
      try db.rows(
        """
        SELECT seq, history_idx, card_id, type, reaction, committed_at FROM reaction_events
        WHERE sent_at IS NULL ORDER BY seq LIMIT ?
        """, [.integer(limit)]
      ) {
        ReactionEvent(
          sequence: $0.integer(0), historyIndex: Int($0.integer(1)), cardID: $0.text(2) ?? "",
          type: $0.text(3) ?? "", reaction: Reaction(rawValue: $0.text(4) ?? "") ?? .tfu,
          committedAt: $0.real(5))
      }
    }
  }

  // MARK: Writing

  /// Writes `change` in one transaction (`BEGIN IMMEDIATE`), or in the caller's. Returns the
  /// history indices its shown cards got, in order: one past the newest row at commit time.
  ///
  /// The commit does not wait for the disk (`synchronous = NORMAL`): in WAL mode a commit
  /// survives a kill of the process; only a power cut may take the last ones (DECISIONS.md,
  /// "A swipe never waits for its commit").
  @discardableResult
  public func apply(_ change: StateChange) throws -> [Int] {
    try database.writeWithoutWaitingForTheDisk { db in try writeRows(of: change, db) }
  }

  /// The number the next history row gets: one past the newest (rows are numbered from 0
  /// without gaps and never deleted), the number the app shows a card under before its row
  /// commits.
  public func nextIndex() throws -> Int {
    try database.read { db in
      let next = try db.rows("SELECT COALESCE(MAX(idx) + 1, 0) FROM history") { $0.integer(0) }
      return Int(next.first ?? 0)
    }
  }

  /// The rows of `change`, in the caller's transaction.
  private func writeRows(of change: StateChange, _ db: Connection) throws -> [Int] {
    for effect in change.effects { try Self.write(effect, time: change.time, db) }
    let indices = try Self.insert(change.shown, db)
    try Self.recordRounds(change.shown, db)
    if let queue = change.returning { try Self.replace(queue, db) }
    for (type, enabled) in change.enabled {
      let sql =
        enabled
        ? "DELETE FROM disabled_types WHERE name = ?"
        : "INSERT OR IGNORE INTO disabled_types (name) VALUES (?)"
      try db.run(sql, [.text(type)])
    }
    if let analytics { try Self.record(change, context: analytics, db) }
    if hooks { try HookQueue.enqueue(change, db) }
    return indices
  }

  /// The change's events, then one for each swipe it makes final and each type it turns on
  /// or off.
  private static func record(
    _ change: StateChange, context: Outbox.Context, _ db: Connection
  ) throws {
    var events = change.events
    for case .commit(let tombstone) in change.effects {
      events.append(.reaction(tombstone))
    }
    for (type, enabled) in change.enabled.sorted(by: { $0.key < $1.key }) {
      events.append(.setting(type: type, enabled: enabled))
    }
    guard !events.isEmpty else { return }
    let time = change.time > 0 ? change.time : Outbox.systemSeconds()
    try Outbox.record(events, at: time, context: context, db)
  }

  /// Appends `shown` after the newest history row, inside the write transaction.
  private static func insert(_ shown: [ShownRecord], _ db: Connection) throws -> [Int] {
    guard !shown.isEmpty else { return [] }
    let next = try db.rows("SELECT COALESCE(MAX(idx) + 1, 0) FROM history") { $0.integer(0) }
    let first = Int(next.first ?? 0)
    let insert = try db.statement(
      "INSERT INTO history (idx, card_id, type, title, shown_at) VALUES (?, ?, ?, ?, ?)")
    for (offset, record) in shown.enumerated() {
      try insert.run([
        .integer(first + offset), .text(record.cardID), .text(record.type), .text(record.title),
        .real(record.shownAt),
      ])
    }
    return Array(first..<first + shown.count)
  }

  /// Stores `queue` in place of the cards that were to come back.
  private static func replace(_ queue: ReturnQueue, _ db: Connection) throws {
    try db.run("DELETE FROM return_queue")
    let places = (queue.onScreen.map { [($0, 0)] } ?? []) + zip(queue.waiting, 1...).map { $0 }
    for (index, place) in places {
      try db.run(
        "INSERT OR REPLACE INTO return_queue (history_idx, place) VALUES (?, ?)",
        [.integer(index), .integer(place)])
    }
  }

  private static func write(_ effect: UndoEffect, time: Double, _ db: Connection) throws {
    switch effect {
    case .entomb(let t):
      try db.run(
        "UPDATE history SET reaction = ? WHERE idx = ?",
        [.text(t.direction.reaction.rawValue), .integer(t.historyIndex)])
      try db.run(
        "INSERT INTO tombstones (history_idx, card_id, type, direction) VALUES (?, ?, ?, ?)",
        [.integer(t.historyIndex), .text(t.cardID), .text(t.type), .text(t.direction.rawValue)])
    case .commit(let t):
      try deleteTombstone(t, db)
      try db.run(
        """
        INSERT INTO reaction_events (history_idx, card_id, type, reaction, committed_at)
        VALUES (?, ?, ?, ?, ?)
        """,
        [
          .integer(t.historyIndex), .text(t.cardID), .text(t.type),
          .text(t.direction.reaction.rawValue), .real(time),
        ])
    case .discard(let t):
      try deleteTombstone(t, db)
    case .restore(let t):
      try deleteTombstone(t, db)
      try db.run("UPDATE history SET reaction = NULL WHERE idx = ?", [.integer(t.historyIndex)])
    case .replace, .refuseReplacement, .askUser:
      break
    }
  }

  private static func deleteTombstone(_ t: Tombstone, _ db: Connection) throws {
    try db.run("DELETE FROM tombstones WHERE history_idx = ?", [.integer(t.historyIndex)])
  }

  static func historyEntry(_ row: Statement) -> HistoryEntry {
    HistoryEntry(
      index: Int(row.integer(0)), cardID: row.text(1) ?? "", type: row.text(2) ?? "",
      title: row.text(3), shownAt: row.real(4),
      reaction: row.text(5).flatMap(Reaction.init(rawValue:)))
  }
}
