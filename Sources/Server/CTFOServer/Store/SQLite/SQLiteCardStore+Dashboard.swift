import SQL

extension SQLiteCardStore {
  public func dashboard(at time: Int64, minReactions: Int) throws -> DashboardData {
    try lane.run { db in
      var data = DashboardData()
      let now = time / DashboardData.hourMilliseconds
      data.hours = try db.rows(
        "SELECT hour, events FROM dash_hours WHERE hour > ? ORDER BY hour",
        [.integer(now - Int64(DashboardData.hoursShown))]
      ) { DashboardData.Hour(hour: $0.integer(0), events: Int($0.integer(1))) }
      // Served cards only, under their own types, and a bounded number of bars.
      data.types = try db.rows(
        """
        SELECT c.type, SUM(d.ctfo), SUM(d.tfu), SUM(d.tifb) FROM dash_cards d
        JOIN cards c ON c.id = d.card_id AND c.removed = 0
        GROUP BY c.type ORDER BY c.type LIMIT ?
        """, [.integer(Int64(DashboardData.typesShown))]
      ) { Self.reactions($0, title: nil) }
      data.topCards = try db.rows(
        """
        SELECT d.card_id, d.ctfo, d.tfu, d.tifb, c.title FROM dash_cards d
        JOIN cards c ON c.id = d.card_id AND c.removed = 0
        WHERE d.ctfo + d.tfu + d.tifb >= ?
        ORDER BY CAST(d.ctfo AS REAL) / (d.ctfo + d.tfu + d.tifb) DESC,
          d.ctfo + d.tfu + d.tifb DESC, d.card_id LIMIT ?
        """, [.integer(Int64(minReactions)), .integer(Int64(DashboardData.topCards))]
      ) { Self.reactions($0, title: $0.text(4)) }
      data.activeInstalls = try DashboardData.activeDays.map { days in
        try db.rows(
          "SELECT COUNT(*) FROM dash_installs WHERE last_seen > ?",
          [.integer(time - days * DashboardData.dayMilliseconds)]
        ) { Int($0.integer(0)) }.first ?? 0
      }
      data.refused = try db.rows("SELECT sink, records, requests FROM dash_refused ORDER BY sink") {
        DashboardData.Refused(
          sink: $0.text(0) ?? "", records: Int($0.integer(1)), requests: Int($0.integer(2)))
      }
      data.names = try db.rows(
        "SELECT sink, name, events FROM dash_names ORDER BY events DESC, sink, name LIMIT ?",
        [.integer(Int64(DashboardData.topNames))]
      ) {
        DashboardData.Name(
          sink: $0.text(0) ?? "", name: $0.text(1) ?? "", events: Int($0.integer(2)))
      }
      return data
    }
  }

  static func reactions(_ row: Statement, title: String?) -> DashboardData.Reactions {
    DashboardData.Reactions(
      key: row.text(0) ?? "", title: title, ctfo: Int(row.integer(1)), tfu: Int(row.integer(2)),
      tifb: Int(row.integer(3)))
  }
}
