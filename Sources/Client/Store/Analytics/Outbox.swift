import CTFOWire
import FeedCore
import FlatJSON
import SQL

#if canImport(Glibc)
  import Glibc
#endif

/// Where analytics events wait until every sink has them (ctfo.md, "Implementation:
/// Analytics"): a table of the state database, written in the transaction of the
/// state change that caused each event, so nothing lives in memory only, and a crash either
/// keeps the change and its event or neither.
///
/// Each event is stored as the exact JSON object sent to the CTFO server and Mixpanel
/// (`{"event": NAME, "properties": {...}}`), its `$insert_id` (a UUIDv7), `distinct_id` and
/// `time` fixed when recorded: a retry sends identical bytes, and the receivers deduplicate on
/// them. Each sink reads from its own cursor; a row goes once every configured sink has it.
/// Events a sink refuses for good are moved to dead letters, kept and counted.
///
///     let outbox = Outbox(database: database)
///     let batch = try outbox.batch(for: "ctfo", limit: 2000, bytes: 2 << 20)
///     try outbox.delivered(batch, to: "ctfo", dead: [], at: now, sinks: ["ctfo"])
public struct Outbox: Sendable {
  let database: StateDatabase

  public init(database: StateDatabase) {
    self.database = database
  }

  /// Between two batches of a flush: a pause in the user's keys, then the WAL checkpoint the
  /// last batch's commit left for it (`StateDatabase.pause`).
  public func pause() throws {
    try database.pause()
  }

  /// What every event says of the program that recorded it (the `Identify` event's
  /// properties).
  public struct Context: Sendable, Hashable {
    public var platform: String
    public var app: String
    public var locale: String

    public init(platform: String = "linux", app: String, locale: String) {
      self.platform = platform
      self.app = app
      self.locale = locale
    }
  }

  /// An event in the outbox.
  public struct Row: Sendable, Hashable {
    public var sequence: Int64
    public var insertID: String
    public var name: String
    /// Milliseconds since the epoch, corrected by the server's clock offset.
    public var time: Int64
    /// The event's JSON object, as sent.
    public var payload: String
  }

  // MARK: - Recording

  /// Records `events` in one transaction of their own (the commands' events).
  public func record(_ events: [AnalyticsEvent], at time: Double, context: Context) throws {
    guard !events.isEmpty else { return }
    try database.write { db in try Self.record(events, at: time, context: context, db) }
  }

  /// Records `events` inside the caller's write transaction, stamped `time` (seconds since
  /// 1970 on this machine) plus the clock offset measured at the last auth. An `Identify`
  /// comes first at the first event of an install and whenever the distinct id changes.
  static func record(
    _ events: [AnalyticsEvent], at time: Double, context: Context, _ db: Connection
  ) throws {
    guard !events.isEmpty else { return }
    let deviceTime = Int64((time * 1000).rounded())
    let server = try db.rows(
      "SELECT clock_offset, distinct_id FROM server_session WHERE id = 1"
    ) { ($0.integer(0), $0.text(1)) }.first
    let serverTime = ServerSession.serverTime(at: deviceTime, offset: server?.0 ?? 0)
    var identity = try Self.identity(db)
    var all = events
    let distinct = server?.1 ?? identity.distinctID
    if !identity.identified || distinct != identity.distinctID {
      identity.distinctID = distinct
      try db.run(
        "UPDATE analytics_identity SET distinct_id = ?, identified = 1 WHERE id = 1",
        [.text(distinct)])
      var identify = AnalyticsEvent(
        "Identify",
        [
          "$device_id": .string(identity.installID), "platform": .string(context.platform),
          "app_version": .string(context.app), "locale": .string(context.locale),
        ])
      if distinct != identity.installID {
        identify.properties.insert(.init("$user_id", .string(distinct)), at: 0)
      }
      all.insert(identify, at: 0)
    }
    let insert = try db.statement(
      "INSERT INTO analytics_events (insert_id, name, time_ms, payload) VALUES (?, ?, ?, ?)")
    for event in all {
      let id = UUIDv7.make(milliseconds: deviceTime)
      let payload = Self.payload(
        event, insertID: id, distinctID: distinct, installID: identity.installID,
        time: serverTime, deviceTime: deviceTime)
      try insert.run([.text(id), .text(event.name), .integer(serverTime), .text(payload)])
    }
  }

  /// The event as the CTFO server and Mixpanel's `/import` take it.
  static func payload(
    _ event: AnalyticsEvent, insertID: String, distinctID: String, installID: String,
    time: Int64, deviceTime: Int64
  ) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    out += #"{"event":"#.utf8
    JSONText.append(event.name, to: &out)
    out += #","properties":{"time":"#.utf8
    out += String(time).utf8
    out += #","distinct_id":"#.utf8
    JSONText.append(distinctID, to: &out)
    out += #","$insert_id":"#.utf8
    JSONText.append(insertID, to: &out)
    out += #","$device_id":"#.utf8
    JSONText.append(installID, to: &out)
    for property in event.properties where !Self.reserved.contains(property.key) {
      out.append(0x2C)
      JSONText.append(property.key, to: &out)
      out.append(0x3A)
      switch property.value {
      case .string(let text): JSONText.append(text, to: &out)
      case .integer(let n): out += String(n).utf8
      case .bool(let b): out += (b ? "true" : "false").utf8
      }
    }
    out += #","$ctfo_device_time":"#.utf8
    out += String(deviceTime).utf8
    out += "}}".utf8
    return String(decoding: out, as: UTF8.self)
  }

  /// Properties every event sets itself.
  private static let reserved: Set<String> = [
    "time", "distinct_id", "$insert_id", "$device_id", "$ctfo_device_time",
  ]

  /// This machine's clock, in seconds since 1970.
  static func systemSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  // MARK: - Identity

  /// The install's identity: a random id made once per state folder, and the distinct id the
  /// last `Identify` named.
  struct Identity {
    var installID: String
    var distinctID: String
    /// Whether an `Identify` was recorded for `distinctID`.
    var identified = false
  }

  /// The identity, made (with a new install id) when there is none yet; inside a write.
  static func identity(_ db: Connection) throws -> Identity {
    let rows = try db.rows(
      "SELECT install_id, distinct_id, identified FROM analytics_identity WHERE id = 1"
    ) { Identity(installID: $0.text(0) ?? "", distinctID: $0.text(1) ?? "", identified: $0.integer(2) != 0) }
    if let found = rows.first { return found }
    let id = UUIDv7.now()
    try db.run(
      "INSERT INTO analytics_identity (id, install_id, distinct_id) VALUES (1, ?, ?)",
      [.text(id), .text(id)])
    return Identity(installID: id, distinctID: id)
  }

  /// This install's id (made now when there is none): the CTFO server's `installId`,
  /// Mixpanel's `$device_id`, GA's `client_id`.
  public func installID() throws -> String {
    try database.write { db in try Self.identity(db).installID }
  }

  // MARK: - Delivery

  /// The oldest events `sink` has not had, at most `limit` of them and, but for a first event
  /// larger alone, at most `bytes` of JSON array (`[a,b]`).
  public func batch(for sink: String, limit: Int, bytes: Int) throws -> [Row] {
    try database.read { db in
      let cursor = try Self.cursor(of: sink, db)
      // The running size of the array: each event and its comma (or bracket).
      let candidates = try db.rows(
        """
        SELECT seq, insert_id, name, time_ms, payload,
          SUM(LENGTH(CAST(payload AS BLOB)) + 1) OVER (ORDER BY seq)
        FROM (SELECT * FROM analytics_events WHERE seq > ? ORDER BY seq LIMIT ?) ORDER BY seq
        """, [.integer(cursor), .integer(Int64(limit))]
      ) { row in
        (
          Row(
            sequence: row.integer(0), insertID: row.text(1) ?? "", name: row.text(2) ?? "",
            time: row.integer(3), payload: row.text(4) ?? ""), size: row.integer(5) + 1
        )
      }
      var rows: [Row] = []
      for (row, size) in candidates {
        if size > Int64(bytes) && !rows.isEmpty { break }
        rows.append(row)
      }
      return rows
    }
  }

  /// How many events `sink` has not had yet.
  public func queued(for sink: String) throws -> Int {
    try database.read { db in
      let cursor = try Self.cursor(of: sink, db)
      return Int(
        try db.rows("SELECT COUNT(*) FROM analytics_events WHERE seq > ?", [.integer(cursor)]) {
          $0.integer(0)
        }.first ?? 0)
    }
  }

  /// Whether any event waits for any of `sinks`: the flusher arms nothing when none does.
  public func isEmpty(for sinks: [String]) throws -> Bool {
    try sinks.allSatisfy { try queued(for: $0) == 0 }
  }

  private static func cursor(of sink: String, _ db: Connection) throws -> Int64 {
    try db.rows("SELECT acked_seq FROM analytics_sinks WHERE sink = ?", [.text(sink)]) {
      $0.integer(0)
    }.first ?? 0
  }

  /// A dead letter: an event a sink refused for good.
  public struct DeadLetter: Sendable, Hashable {
    public var row: Row
    public var status: Int?
    public var reason: String

    public init(row: Row, status: Int?, reason: String) {
      self.row = row
      self.status = status
      self.reason = reason
    }
  }

  /// `sink` has had `batch` (less `dead`, which it refused for good and which are kept as dead
  /// letters): its cursor moves past the batch and, when every one of `sinks` has had every
  /// event, the outbox is emptied (`emptyIfDelivered`). One transaction, committed without
  /// waiting for the disk, as are a sink's failures: a lost acknowledgement only sends a batch
  /// again, which the receivers deduplicate by `$insert_id`.
  public func delivered(
    _ batch: [Row], to sink: String, dead: [DeadLetter] = [], at now: Int64, sinks: [String]
  ) throws {
    guard let last = batch.last else { return }
    try database.writeWithoutWaitingForTheDisk { db in
      try Self.ensure(sink, db)
      for letter in dead {
        try db.run(
          "INSERT OR REPLACE INTO analytics_dead (sink, seq, insert_id, payload, status, reason, "
            + "at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
          [
            .text(sink), .integer(letter.row.sequence), .text(letter.row.insertID),
            .text(letter.row.payload), letter.status.map { .integer(Int64($0)) } ?? .null,
            .text(letter.reason), .integer(now),
          ])
      }
      try db.run(
        "UPDATE analytics_sinks SET acked_seq = MAX(acked_seq, ?), delivered = delivered + ?, "
          + "failures = 0, next_attempt_ms = NULL, last_success_ms = ? WHERE sink = ?",
        [
          .integer(last.sequence), .integer(Int64(batch.count - dead.count)), .integer(now),
          .text(sink),
        ])
      for sink in sinks { try Self.ensure(sink, db) }
      try Self.emptyIfDelivered(sinks, db)
    }
  }

  /// Empties the outbox if every one of `sinks` has had every event in it (a flush that finds
  /// nothing to send calls it: events left by a version that deleted them apart).
  public func prune(sinks: [String]) throws {
    guard !sinks.isEmpty else { return }
    try database.writeWithoutWaitingForTheDisk { db in
      for sink in sinks { try Self.ensure(sink, db) }
      try Self.emptyIfDelivered(sinks, db)
    }
  }

  /// Deletes every event when each of `sinks` has had them all; otherwise nothing (events
  /// stay until the slowest sink catches up). A `DELETE` without `WHERE` is SQLite's truncate
  /// optimisation: the table's pages go to the free list and few pages reach the WAL. Deleting
  /// each batch's rows instead wrote every page they touched, and the writer's next commit,
  /// whose fsync covers the whole WAL, paid for them: swipes made while a large outbox flushed
  /// were slow to commit.
  private static func emptyIfDelivered(_ sinks: [String], _ db: Connection) throws {
    guard !sinks.isEmpty else { return }
    let marks = Array(repeating: "?", count: sinks.count).joined(separator: ", ")
    let behind = try db.rows(
      "SELECT EXISTS (SELECT 1 FROM analytics_events WHERE seq > "
        + "(SELECT MIN(acked_seq) FROM analytics_sinks WHERE sink IN (\(marks))))",
      sinks.map { .text($0) }
    ) { $0.integer(0) }.first ?? 1
    guard behind == 0 else { return }
    try db.run("DELETE FROM analytics_events")
  }

  private static func ensure(_ sink: String, _ db: Connection) throws {
    try db.run("INSERT OR IGNORE INTO analytics_sinks (sink) VALUES (?)", [.text(sink)])
  }

  /// A sending attempt failed: the sink waits until `nextAttempt` (ms since the epoch),
  /// its events kept.
  public func failed(
    sink: String, reason: String, at now: Int64, nextAttempt: Int64?
  ) throws {
    try database.writeWithoutWaitingForTheDisk { db in
      try Self.ensure(sink, db)
      try db.run(
        "UPDATE analytics_sinks SET failures = failures + 1, next_attempt_ms = ?, "
          + "last_error = ?, last_error_ms = ? WHERE sink = ?",
        [nextAttempt.map { .integer($0) } ?? .null, .text(reason), .integer(now), .text(sink)])
    }
  }

  /// How many times in a row the sink failed, and when it may try again.
  public func schedule(of sink: String) throws -> (failures: Int64, nextAttempt: Int64?) {
    try database.read { db in
      try db.rows(
        "SELECT failures, next_attempt_ms FROM analytics_sinks WHERE sink = ?", [.text(sink)]
      ) { ($0.integer(0), $0.isNull(1) ? nil : $0.integer(1)) }.first ?? (0, nil)
    }
  }

  /// What `ctfo status` says of a sink.
  public struct SinkStatus: Sendable, Hashable {
    public var sink: String
    public var queued = 0
    public var delivered: Int64 = 0
    public var failures: Int64 = 0
    public var nextAttempt: Int64?
    public var lastSuccess: Int64?
    public var lastError: String?
    public var lastErrorAt: Int64?
    public var deadLetters = 0
  }

  public func status(of sink: String) throws -> SinkStatus {
    var status = SinkStatus(sink: sink)
    status.queued = try queued(for: sink)
    try database.read { db in
      let rows = try db.rows(
        "SELECT delivered, failures, next_attempt_ms, last_success_ms, last_error, "
          + "last_error_ms FROM analytics_sinks WHERE sink = ?", [.text(sink)]
      ) { row in
        (
          row.integer(0), row.integer(1), row.isNull(2) ? nil : row.integer(2),
          row.isNull(3) ? nil : row.integer(3), row.text(4), row.isNull(5) ? nil : row.integer(5)
        )
      }
      if let row = rows.first {
        (
          status.delivered, status.failures, status.nextAttempt, status.lastSuccess,
          status.lastError, status.lastErrorAt
        ) = row
      }
      status.deadLetters = Int(
        try db.rows("SELECT COUNT(*) FROM analytics_dead WHERE sink = ?", [.text(sink)]) {
          $0.integer(0)
        }.first ?? 0)
    }
    return status
  }

  /// The dead letters of `sink`, oldest first.
  public func deadLetters(of sink: String) throws -> [DeadLetter] {
    try database.read { db in
      try db.rows(
        "SELECT seq, insert_id, payload, status, reason FROM analytics_dead WHERE sink = ? "
          + "ORDER BY seq", [.text(sink)]
      ) { row in
        DeadLetter(
          row: Row(
            sequence: row.integer(0), insertID: row.text(1) ?? "", name: "", time: 0,
            payload: row.text(2) ?? ""),
          status: row.isNull(3) ? nil : Int(row.integer(3)), reason: row.text(4) ?? "")
      }
    }
  }

  /// Every event still in the outbox, oldest first (tests, `ctfo status`).
  public func all() throws -> [Row] {
    try database.read { db in
      try db.rows("SELECT seq, insert_id, name, time_ms, payload FROM analytics_events ORDER BY seq")
      {
        Row(
          sequence: $0.integer(0), insertID: $0.text(1) ?? "", name: $0.text(2) ?? "",
          time: $0.integer(3), payload: $0.text(4) ?? "")
      }
    }
  }
}
