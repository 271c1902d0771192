import CTFOWire
import SQL

/// Analytics events and the personalisation they feed (ctfo.md, "Personalization").
///
/// Each final reaction (CTFO 1, TFU 0.5, TIFB 0) adds to the personaliser's evidence in the
/// transaction that stores it and queues its install for new scores, made off the request
/// path (`Personalisation/`, `rescorePending`).
extension SQLiteCardStore {
  public func record(events: [ReceivedEvent], install: String?, at time: Int64) throws {
    guard !events.isEmpty else { return }
    let settings = personalisation
    try changing(for: install) { db, revision in
      let distinct = try install.flatMap { install in
        try db.rows("SELECT distinct_id FROM installs WHERE install_id = ?", [.text(install)]) {
          $0.text(0)
        }.first ?? nil
      }
      let insert = try db.statement(
        """
        INSERT INTO events (sink, owner, insert_id, name, distinct_id, install_id, time, payload,
          received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (sink, owner, insert_id) DO UPDATE SET copies = copies + 1
        RETURNING copies
        """)
      // A reaction counts only for a served card, under the card's own type: the types a
      // client may make the server score are the served ones, however many it names.
      let served = try db.statement("SELECT type FROM cards WHERE id = ? AND removed = 0")
      let held = try db.statement(
        "SELECT reaction, time FROM reactions WHERE install_id = ? AND card_id = ?")
      var tally = DashboardTally()
      for event in events {
        let copies = try insert.rows([
          .text(event.sink), .text(install ?? event.distinctID), .text(event.insertID),
          .text(event.name), .text(distinct ?? event.distinctID), .text(install),
          .integer(event.time), .text(event.payload), .integer(time),
        ]) { $0.integer(0) }
        if copies.first == 1 { tally.add(event, install: install, at: time) }
        guard event.sink == "ctfo", let install, let card = event.cardID,
          let type = try served.rows([.text(card)], { $0.text(0) }).first ?? nil
        else { continue }
        try db.run(
          "INSERT OR IGNORE INTO seen (install_id, card_id) VALUES (?, ?)",
          [.text(install), .text(card)])
        try db.run(
          "DELETE FROM user_scores WHERE install_id = ? AND card_id = ?",
          [.text(install), .text(card)])
        guard Self.weights[event.name] != nil else { continue }
        let old = try held.rows([.text(install), .text(card)]) {
          (reaction: $0.text(0) ?? "", time: $0.integer(1))
        }.first
        if let old, old.time > event.time { continue }
        try Self.learn(
          install: install, card: card, weight: Self.weights[event.name] ?? 0, at: event.time,
          old: old.map { (Self.weights[$0.reaction] ?? 0, $0.time) }, settings: settings, db)
        try db.run(
          """
          INSERT INTO reactions (install_id, card_id, type, reaction, time) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (install_id, card_id) DO UPDATE SET reaction = excluded.reaction,
            time = excluded.time, type = excluded.type
          """, [.text(install), .text(card), .text(type), .text(event.name), .integer(event.time)])
        tally.react(card: card, type: type, from: old?.reaction, to: event.name)
      }
      try Self.keep(tally, install: install, at: time, db)
      // What pulls send changes when the install's scores are made anew (`rescorePending`).
      return ((), false)
    }
  }

  /// Adds what `record` stored anew to the dashboard's aggregates, in its transaction.
  private static func keep(
    _ tally: DashboardTally, install: String?, at time: Int64, _ db: Connection
  ) throws {
    if let install {
      try db.run(
        """
        INSERT INTO dash_installs (install_id, last_seen) VALUES (?, ?)
        ON CONFLICT (install_id) DO UPDATE SET last_seen = MAX(last_seen, excluded.last_seen)
        """, [.text(install), .integer(time)])
    }
    for (hour, count) in tally.hours {
      try db.run(
        """
        INSERT INTO dash_hours (hour, events) VALUES (?, ?)
        ON CONFLICT (hour) DO UPDATE SET events = events + excluded.events
        """, [.integer(hour), .integer(Int64(count))])
    }
    for (key, count) in tally.names {
      try db.run(
        """
        INSERT INTO dash_names (sink, name, events) VALUES (?, ?, ?)
        ON CONFLICT (sink, name) DO UPDATE SET events = events + excluded.events
        """, [.text(key[0]), .text(key[1]), .integer(Int64(count))])
    }
    for (card, entry) in tally.cards {
      try db.run(
        """
        INSERT INTO dash_cards (card_id, type, ctfo, tfu, tifb) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (card_id) DO UPDATE SET ctfo = ctfo + excluded.ctfo,
          tfu = tfu + excluded.tfu, tifb = tifb + excluded.tifb
        """,
        [.text(card), .text(entry.type)] + entry.counts.map { .integer(Int64($0)) })
    }
  }

  public func countRefused(sink: String, records: Int, requests: Int) throws {
    guard records > 0 || requests > 0 else { return }
    try lane.run { db in
      try db.run(
        """
        INSERT INTO dash_refused (sink, records, requests) VALUES (?, ?, ?)
        ON CONFLICT (sink) DO UPDATE SET records = records + excluded.records,
          requests = requests + excluded.requests
        """, [.text(sink), .integer(Int64(records)), .integer(Int64(requests))])
    }
  }

  /// What each final reaction says of the card: CTFO > TFU > TIFB.
  static let weights = ["CTFO": 1.0, "TFU": 0.5, "TIFB": 0.0]

  /// The scores made for `install` since `since`, found by revision (`+u.card_id`: not by a
  /// walk of all the install's scores in card order).
  static func userScores(_ db: Connection, install: String, since: Int64) throws -> [Wire.Score] {
    try db.rows(
      """
      SELECT u.card_id, u.score, u.scored_at, u.reason FROM user_scores u
      JOIN cards c ON c.id = u.card_id
      WHERE u.install_id = ? AND u.revision > ? AND c.removed = 0 ORDER BY +u.card_id
      """, [.text(install), .integer(since)]
    ) {
      Wire.Score(
        cardId: $0.text(0) ?? "", score: $0.real(1), scoredAt: $0.integer(2), reason: $0.text(3))
    }
  }

  public func events(sink: String) throws -> [ReceivedEvent] {
    try lane.run { db in
      try db.rows(
        "SELECT sink, insert_id, name, distinct_id, time, payload, copies FROM events "
          + "WHERE sink = ? ORDER BY seq", [.text(sink)]
      ) {
        ReceivedEvent(
          sink: $0.text(0) ?? "", insertID: $0.text(1) ?? "", name: $0.text(2) ?? "",
          distinctID: $0.text(3) ?? "", time: $0.integer(4), payload: $0.text(5) ?? "",
          copies: Int($0.integer(6)))
      }
    }
  }

  /// What `ctfo-server events` prints: how many events of each name `sink` holds, one
  /// `NAME COUNT` a line, by name. A name stored before names were checked is made safe for a
  /// terminal and one line.
  public func eventReport(sink: String) throws -> String {
    try lane.run { db in
      try db.rows(
        "SELECT name, COUNT(*) FROM events WHERE sink = ? GROUP BY name ORDER BY name",
        [.text(sink)]
      ) { EventReport.line(name: $0.text(0) ?? "", count: $0.integer(1)) }.joined()
    }
  }
}
