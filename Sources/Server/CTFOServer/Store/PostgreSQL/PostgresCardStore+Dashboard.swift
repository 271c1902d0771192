import PostgresNIO

extension PostgresCardStore {
  public func dashboard(at time: Int64, minReactions: Int) async throws -> DashboardData {
    try await client.withConnection { db in
      var data = DashboardData()
      let since = time / DashboardData.hourMilliseconds - Int64(DashboardData.hoursShown)
      for row in try await db.rows(
        "SELECT hour, events FROM dash_hours WHERE hour > \(since) ORDER BY hour")
      {
        let (hour, events) = try row.decode((Int64, Int64).self)
        data.hours.append(DashboardData.Hour(hour: hour, events: Int(events)))
      }
      for row in try await db.rows(
        """
        SELECT c.type, SUM(d.ctfo)::BIGINT, SUM(d.tfu)::BIGINT, SUM(d.tifb)::BIGINT
        FROM dash_cards d JOIN cards c ON c.id = d.card_id AND c.removed = 0
        GROUP BY c.type ORDER BY c.type LIMIT \(Int64(DashboardData.typesShown))
        """)
      {
        let (type, ctfo, tfu, tifb) = try row.decode((String, Int64, Int64, Int64).self)
        data.types.append(
          DashboardData.Reactions(key: type, ctfo: Int(ctfo), tfu: Int(tfu), tifb: Int(tifb)))
      }
      for row in try await db.rows(
        """
        SELECT d.card_id, d.ctfo, d.tfu, d.tifb, c.title FROM dash_cards d
        JOIN cards c ON c.id = d.card_id AND c.removed = 0
        WHERE d.ctfo + d.tfu + d.tifb >= \(Int64(minReactions))
        ORDER BY d.ctfo::float8 / (d.ctfo + d.tfu + d.tifb) DESC, d.ctfo + d.tfu + d.tifb DESC,
          d.card_id LIMIT \(Int64(DashboardData.topCards))
        """)
      {
        let (card, ctfo, tfu, tifb, title) = try row.decode(
          (String, Int64, Int64, Int64, String?).self)
        data.topCards.append(
          DashboardData.Reactions(
            key: card, title: title, ctfo: Int(ctfo), tfu: Int(tfu), tifb: Int(tifb)))
      }
      var active: [Int] = []
      for days in DashboardData.activeDays {
        let since = time - days * DashboardData.dayMilliseconds
        active.append(
          Int(
            try await db.rows("SELECT COUNT(*) FROM dash_installs WHERE last_seen > \(since)")
              .first?.decode(Int64.self) ?? 0))
      }
      data.activeInstalls = active
      for row in try await db.rows(
        "SELECT sink, records, requests FROM dash_refused ORDER BY sink")
      {
        let (sink, records, requests) = try row.decode((String, Int64, Int64).self)
        data.refused.append(
          DashboardData.Refused(sink: sink, records: Int(records), requests: Int(requests)))
      }
      for row in try await db.rows(
        """
        SELECT sink, name, events FROM dash_names ORDER BY events DESC, sink, name
        LIMIT \(Int64(DashboardData.topNames))
        """)
      {
        let (sink, name, events) = try row.decode((String, String, Int64).self)
        data.names.append(DashboardData.Name(sink: sink, name: name, events: Int(events)))
      }
      return data
    }
  }

  /// Scores the unseen cards of `type` for `install` from its reactions to the type, by the
}
