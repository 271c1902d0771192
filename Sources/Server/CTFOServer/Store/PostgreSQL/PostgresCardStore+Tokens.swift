import Logging
import PostgresNIO

extension PostgresCardStore {
  /// Stores the install's one live token: any older one is revoked (the install is the
  /// tokens' key, so two processes issuing at once leave one).
  public func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) async throws
    -> String
  {
    let key = Token.hex(hash)
    let newDistinct = "d-" + Token.random(bytes: 8)
    let (distinct, revoked) = try await client.withTransaction(logger: Self.logger) { db in
      try await db.run(
        """
        INSERT INTO installs (install_id, distinct_id) VALUES (\(installId), \(newDistinct))
        ON CONFLICT (install_id) DO NOTHING
        """)
      let distinct =
        try await db.rows(
          "SELECT distinct_id FROM installs WHERE install_id = \(installId) FOR UPDATE"
        ).first?.decode(String.self) ?? ""
      var revoked: [String] = []
      for row in try await db.rows("SELECT hash FROM tokens WHERE install_id = \(installId)") {
        revoked.append(try row.decode(String.self))
      }
      try await db.run(
        """
        INSERT INTO tokens (install_id, hash, expires_at) VALUES (\(installId), \(key),
          \(expiresAt))
        ON CONFLICT (install_id) DO UPDATE SET hash = excluded.hash,
          expires_at = excluded.expires_at
        """)
      return (distinct, revoked)
    }
    // Its first scores, or new ones, from the population's evidence now: queued after the
    // commit, holding no lock on the install's row. Queued inside, it deadlocked with a
    // rescore of the same install (which holds the queue's row and then updates the
    // install's revision): a 503 for the auth.
    try await client.withConnection { try await Self.queueRescore(install: installId, $0) }
    knownTokens.forget(revoked)
    return distinct
  }

  /// The install of a token that has not expired at `time`. A token found is remembered for
  /// a second, so a client's requests in that second cost no query; a token revoked by any
  /// process is refused a second later at most.
  public func install(forToken hash: [UInt8], at time: Int64) async throws -> String? {
    let key = Token.hex(hash)
    if let known = knownTokens.install(key, at: time) { return known }
    let found = try await client.withConnection { db in
      try await db.rows(
        "SELECT install_id, expires_at FROM tokens WHERE hash = \(key) AND expires_at > \(time)"
      ).first?.decode((String, Int64).self)
    }
    if let found {
      knownTokens.remember(key, install: found.0, expiresAt: found.1, checkedAt: time)
    }
    return found?.0
  }

  public func prune(at time: Int64, eventsBefore: Int64?) async throws -> PruneReport {
    var report = PruneReport()
    report.tokens = try await client.withTransaction(logger: Self.logger) { db in
      let tokens = try await Self.count(
        """
        WITH d AS (DELETE FROM tokens WHERE expires_at <= \(time) RETURNING 1)
        SELECT COUNT(*) FROM d
        """, db)
      try await db.run("DELETE FROM request_counts WHERE window_start < \(time - 120_000)")
      // The dashboard's totals past what it shows: hours past its chart, installs past 30 days.
      let (hours, installs) = DashboardData.kept(at: time)
      try await db.run("DELETE FROM dash_hours WHERE hour < \(hours)")
      try await db.run("DELETE FROM dash_installs WHERE last_seen < \(installs)")
      return tokens
    }
    // In batches, each its own transaction, counted in the database: no transaction holds
    // the whole prune, and no row of it comes back to the server.
    let batch = Int64(SQLiteCardStore.pruneBatch)
    if let eventsBefore {
      while true {
        let deleted = try await client.withConnection { db in
          try await Self.count(
            """
            WITH d AS (DELETE FROM events WHERE seq IN (
              SELECT seq FROM events WHERE received_at < \(eventsBefore) LIMIT \(batch))
              RETURNING 1)
            SELECT COUNT(*) FROM d
            """, db)
        }
        report.events += deleted
        if deleted < batch { break }
      }
    }
    while true {
      let forgotten = try await client.withTransaction(logger: Self.logger) { db in
        var forgotten: [String] = []
        for row in try await db.rows(
          """
          DELETE FROM installs WHERE install_id IN (
            SELECT install_id FROM installs i
            WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.install_id = i.install_id)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.install_id = i.install_id)
            LIMIT \(batch / 10))
          RETURNING install_id
          """)
        {
          forgotten.append(try row.decode(String.self))
        }
        if !forgotten.isEmpty {
          for table in ["seen", "reactions", "user_scores"] {
            try await db.run(
              "DELETE FROM \(unescaped: table) WHERE install_id = ANY(\(forgotten))")
          }
        }
        return forgotten.count
      }
      report.installs += forgotten
      if forgotten < batch / 10 { break }
    }
    return report
  }

  /// The one count `query` answers.
  static func count(_ query: PostgresQuery, _ db: PostgresConnection) async throws -> Int {
    Int(try await db.rows(query).first?.decode(Int64.self) ?? 0)
  }

  // MARK: - Rates

  public var sharesRequestCounts: Bool { true }

  public func addRequestCounts(_ counts: [String: Int], window: Int64) async throws
    -> [String: Int]
  {
    guard !counts.isEmpty else { return [:] }
    let installs = Array(counts.keys)
    let added = installs.map { Int64(counts[$0] ?? 0) }
    return try await client.withConnection { db in
      var totals: [String: Int] = [:]
      for row in try await db.rows(
        """
        INSERT INTO request_counts (install_id, window_start, count)
        SELECT install, \(window), added FROM UNNEST(\(installs)::text[], \(added)::bigint[])
          AS t(install, added)
        ON CONFLICT (install_id, window_start)
          DO UPDATE SET count = request_counts.count + excluded.count
        RETURNING install_id, count
        """)
      {
        let (install, count) = try row.decode((String, Int64).self)
        totals[install] = Int(count)
      }
      return totals
    }
  }
}
