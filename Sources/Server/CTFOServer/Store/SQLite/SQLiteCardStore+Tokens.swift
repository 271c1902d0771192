import SQL

extension SQLiteCardStore {
  /// Stores the install's one live token: any older one is revoked.
  public func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) throws -> String {
    let (distinct, revoked) = try lane.run { db in
      try db.transaction(immediate: true) {
        try db.run(
          "INSERT OR IGNORE INTO installs (install_id, distinct_id) VALUES (?, ?)",
          [.text(installId), .text("d-" + Token.random(bytes: 8))])
        let revoked = try db.rows(
          "SELECT hash FROM tokens WHERE install_id = ?", [.text(installId)]
        ) { $0.text(0) ?? "" }
        try db.run("DELETE FROM tokens WHERE install_id = ?", [.text(installId)])
        try db.run(
          "INSERT INTO tokens (hash, install_id, expires_at) VALUES (?, ?, ?)",
          [.text(Token.hex(hash)), .text(installId), .integer(expiresAt)])
        let distinct =
          try db.rows(
            "SELECT distinct_id FROM installs WHERE install_id = ?", [.text(installId)]
          ) { $0.text(0) ?? "" }.first ?? ""
        // Its first scores, or new ones, from the population's evidence now.
        try Self.queueRescore(install: installId, db)
        return (distinct, revoked)
      }
    }
    knownTokens.forget(revoked)
    return distinct
  }

  /// Rows a prune deletes in one transaction: every other request waits for one batch at
  /// most, never for the whole prune.
  static let pruneBatch = 2_000

  public func prune(at time: Int64, eventsBefore: Int64?) throws -> PruneReport {
    var report = PruneReport()
    try lane.run { db in
      try db.transaction(immediate: true) {
        try db.run("DELETE FROM tokens WHERE expires_at <= ?", [.integer(time)])
        report.tokens = db.changes
        // The dashboard's totals past what it shows: hours past its chart, installs past 30
        // days.
        let (hours, installs) = DashboardData.kept(at: time)
        try db.run("DELETE FROM dash_hours WHERE hour < ?", [.integer(hours)])
        try db.run("DELETE FROM dash_installs WHERE last_seen < ?", [.integer(installs)])
      }
    }
    if let eventsBefore {
      while true {
        let deleted = try lane.run { db in
          try db.transaction(immediate: true) {
            try db.run(
              """
              DELETE FROM events WHERE seq IN (
                SELECT seq FROM events WHERE received_at < ? LIMIT ?)
              """, [.integer(eventsBefore), .integer(Int64(Self.pruneBatch))])
            return db.changes
          }
        }
        report.events += deleted
        if deleted < Self.pruneBatch { break }
      }
    }
    while true {
      let forgotten = try lane.run { db in
        try db.transaction(immediate: true) {
          let forgotten = try db.rows(
            """
            SELECT install_id FROM installs i
            WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.install_id = i.install_id)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.install_id = i.install_id)
            LIMIT ?
            """, [.integer(Int64(Self.pruneBatch / 10))]
          ) { $0.text(0) ?? "" }
          for install in forgotten {
            for table in ["installs", "seen", "reactions", "user_scores"] {
              try db.run("DELETE FROM \(table) WHERE install_id = ?", [.text(install)])
            }
          }
          return forgotten.count
        }
      }
      report.installs += forgotten
      if forgotten < Self.pruneBatch / 10 { break }
    }
    return report
  }

  /// The install of a token that has not expired at `time`. A token found is remembered for
  /// a second, so a client's requests in that second cost no query (each query's read
  /// transaction takes SQLite's file locks, most of a 304's cost), and a token revoked in the
  /// store, by any process, is refused a second later at most.
  public func install(forToken hash: [UInt8], at time: Int64) throws -> String? {
    let key = Token.hex(hash)
    if let known = knownTokens.install(key, at: time) { return known }
    let found = try lane.run { db in
      try db.rows(
        "SELECT install_id, expires_at FROM tokens WHERE hash = ? AND expires_at > ?",
        [.text(key), .integer(time)]
      ) { (install: $0.text(0) ?? "", expiresAt: $0.integer(1)) }.first
    }
    if let found {
      knownTokens.remember(key, install: found.install, expiresAt: found.expiresAt, checkedAt: time)
    }
    return found?.install
  }
}
