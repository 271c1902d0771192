import Logging
import PostgresNIO

extension PostgresCardStore {
  public func record(events: [ReceivedEvent], install: String?, at time: Int64) async throws {
    guard !events.isEmpty else { return }
    let cards = install == nil ? [] : events.filter { $0.sink == "ctfo" && $0.cardID != nil }
    // A reaction counts only for a served card, under the card's own type: the types a client
    // may make the server score are the served ones, however many it names.
    let write = { (db: PostgresConnection) async throws -> [String: String] in
      let stored = try await Self.insert(events, install: install, at: time, db)
      var tally = DashboardTally()
      for event in stored { tally.add(event, install: install, at: time) }
      try await Self.keep(tally, install: install, at: time, db)
      guard let install, !cards.isEmpty else { return [:] }
      let named = Array(Set(cards.compactMap(\.cardID)))
      var served: [String: String] = [:]
      for row in try await db.rows(
        "SELECT id, type FROM cards WHERE id = ANY(\(named)) AND removed = 0")
      {
        let (id, type) = try row.decode((String, String).self)
        served[id] = type
      }
      let ids = Array(served.keys)
      guard !ids.isEmpty else { return [:] }
      try await db.run(
        """
        INSERT INTO seen (install_id, card_id) SELECT \(install), card
        FROM UNNEST(\(ids)::text[]) AS t(card) ON CONFLICT DO NOTHING
        """)
      try await db.run(
        "DELETE FROM user_scores WHERE install_id = \(install) AND card_id = ANY(\(ids))")
      return served
    }
    let reacts = cards.contains { SQLiteCardStore.weights[$0.name] != nil }
    let settings = personalisation
    // Only a reaction changes what pulls send (its install's scores): a batch without one
    // takes no revision, so no lock that the other processes' batches wait for.
    guard let install, reacts else {
      return try await client.withTransaction(logger: Self.logger) { _ = try await write($0) }
    }
    try await changing(for: install) { db, revision in
      let served = try await write(db)
      var tally = DashboardTally()
      for event in cards where SQLiteCardStore.weights[event.name] != nil {
        guard let card = event.cardID, let type = served[card] else { continue }
        let old = try await db.rows(
          """
          SELECT reaction, time FROM reactions
          WHERE install_id = \(install) AND card_id = \(card) FOR UPDATE
          """
        ).first?.decode((String, Int64).self)
        if let old, old.1 > event.time { continue }
        let weights = SQLiteCardStore.weights
        try await Self.learn(
          install: install, card: card, weight: weights[event.name] ?? 0, at: event.time,
          old: old.map { (weights[$0.0] ?? 0, $0.1) }, settings: settings, db)
        try await db.run(
          """
          INSERT INTO reactions (install_id, card_id, type, reaction, time)
          VALUES (\(install), \(card), \(type), \(event.name), \(event.time))
          ON CONFLICT (install_id, card_id) DO UPDATE SET reaction = excluded.reaction,
            time = excluded.time, type = excluded.type
          """)
        tally.react(card: card, type: type, from: old?.0, to: event.name)
      }
      try await Self.keep(tally, install: nil, at: time, db)
      // What pulls send changes when the install's scores are made anew (`rescorePending`).
      return ((), false)
    }
  }

  /// Stores `events` in one statement: one row per sink, sender and `$insert_id`, the first's,
  /// with how many came (a batch may hold the same event twice; a row may not change twice).
  /// Returns the events stored for the first time.
  private static func insert(
    _ events: [ReceivedEvent], install: String?, at time: Int64, _ db: PostgresConnection
  ) async throws -> [ReceivedEvent] {
    var distinct: String?
    if let install {
      distinct =
        try await db.rows("SELECT distinct_id FROM installs WHERE install_id = \(install)")
        .first?.decode(String.self)
    }
    var firsts: [ReceivedEvent] = []
    var copies: [Int32] = []
    var index: [[String]: Int] = [:]
    for event in events {
      let key = [event.sink, install ?? event.distinctID, event.insertID]
      if let at = index[key] {
        copies[at] += 1
      } else {
        index[key] = firsts.count
        firsts.append(event)
        copies.append(1)
      }
    }
    let rows = try await db.rows(
      """
      INSERT INTO events (sink, owner, insert_id, name, distinct_id, install_id, time, payload,
        received_at, copies)
      SELECT sink, owner, insert_id, name, distinct_id, \(install)::text, time, payload,
        \(time), copies
      FROM UNNEST(\(firsts.map(\.sink))::text[],
        \(firsts.map { install ?? $0.distinctID })::text[], \(firsts.map(\.insertID))::text[],
        \(firsts.map(\.name))::text[], \(firsts.map { distinct ?? $0.distinctID })::text[],
        \(firsts.map(\.time))::bigint[], \(firsts.map(\.payload))::text[], \(copies)::int[])
        WITH ORDINALITY AS e(sink, owner, insert_id, name, distinct_id, time, payload, copies, n)
      ORDER BY n
      ON CONFLICT (sink, owner, insert_id) DO UPDATE SET copies = events.copies + excluded.copies
      RETURNING sink, owner, insert_id, (xmax = 0)
      """)
    var stored: [ReceivedEvent] = []
    for row in rows {
      let (sink, owner, insertID, inserted) = try row.decode((String, String, String, Bool).self)
      if inserted, let at = index[[sink, owner, insertID]] { stored.append(firsts[at]) }
    }
    return stored
  }

  /// Adds what `record` stored anew to the dashboard's aggregates, in its transaction, one
  /// statement a table.
  private static func keep(
    _ tally: DashboardTally, install: String?, at time: Int64, _ db: PostgresConnection
  ) async throws {
    if let install {
      try await db.run(
        """
        INSERT INTO dash_installs (install_id, last_seen) VALUES (\(install), \(time))
        ON CONFLICT (install_id) DO UPDATE
          SET last_seen = GREATEST(dash_installs.last_seen, excluded.last_seen)
        """)
    }
    guard !tally.isEmpty else { return }
    let hours = tally.hours.sorted { $0.key < $1.key }
    try await db.run(
      """
      INSERT INTO dash_hours (hour, events)
      SELECT * FROM UNNEST(
        \(hours.map(\.key))::bigint[], \(hours.map { Int64($0.value) })::bigint[])
      ON CONFLICT (hour) DO UPDATE SET events = dash_hours.events + excluded.events
      """)
    let names = tally.names.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    try await db.run(
      """
      INSERT INTO dash_names (sink, name, events)
      SELECT * FROM UNNEST(\(names.map { $0.key[0] })::text[], \(names.map { $0.key[1] })::text[],
        \(names.map { Int64($0.value) })::bigint[])
      ON CONFLICT (sink, name) DO UPDATE SET events = dash_names.events + excluded.events
      """)
    guard !tally.cards.isEmpty else { return }
    let cards = tally.cards.sorted { $0.key < $1.key }
    try await db.run(
      """
      INSERT INTO dash_cards (card_id, type, ctfo, tfu, tifb)
      SELECT * FROM UNNEST(\(cards.map(\.key))::text[], \(cards.map(\.value.type))::text[],
        \(cards.map { Int64($0.value.counts[0]) })::bigint[],
        \(cards.map { Int64($0.value.counts[1]) })::bigint[],
        \(cards.map { Int64($0.value.counts[2]) })::bigint[])
      ON CONFLICT (card_id) DO UPDATE SET ctfo = dash_cards.ctfo + excluded.ctfo,
        tfu = dash_cards.tfu + excluded.tfu, tifb = dash_cards.tifb + excluded.tifb
      """)
  }

  public func countRefused(sink: String, records: Int, requests: Int) async throws {
    guard records > 0 || requests > 0 else { return }
    try await client.withConnection { db in
      try await db.run(
        """
        INSERT INTO dash_refused (sink, records, requests)
        VALUES (\(sink), \(Int64(records)), \(Int64(requests)))
        ON CONFLICT (sink) DO UPDATE SET records = dash_refused.records + excluded.records,
          requests = dash_refused.requests + excluded.requests
        """)
    }
  }

  public func events(sink: String) async throws -> [ReceivedEvent] {
    try await client.withConnection { db in
      var events: [ReceivedEvent] = []
      for row in try await db.rows(
        """
        SELECT sink, insert_id, name, distinct_id, time, payload, copies FROM events
        WHERE sink = \(sink) ORDER BY seq
        """)
      {
        let (sink, insertID, name, distinctID, time, payload, copies) = try row.decode(
          (String, String, String, String, Int64, String, Int32).self)
        events.append(
          ReceivedEvent(
            sink: sink, insertID: insertID, name: name, distinctID: distinctID, time: time,
            payload: payload, copies: Int(copies)))
      }
      return events
    }
  }

  public func eventReport(sink: String) async throws -> String {
    try await client.withConnection { db in
      var report = ""
      for row in try await db.rows(
        "SELECT name, COUNT(*) FROM events WHERE sink = \(sink) GROUP BY name ORDER BY name")
      {
        let (name, count) = try row.decode((String, Int64).self)
        report += EventReport.line(name: name, count: count)
      }
      return report
    }
  }
}
