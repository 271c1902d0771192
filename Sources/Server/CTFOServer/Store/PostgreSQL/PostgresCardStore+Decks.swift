import CTFOWire
import PostgresNIO

extension PostgresCardStore {
  public func load(cards: [Wire.Card], types: [Wire.CardType]) async throws -> LoadReport {
    let now = Clock.milliseconds()
    return try await changing { db, revision in
      var report = LoadReport()
      var typesChanged = 0
      for type in types {
        typesChanged += try await db.rows(
          """
          INSERT INTO types (name, label, colour, description, revision)
          VALUES (\(type.name), \(type.label), \(type.colour), \(type.description), \(revision))
          ON CONFLICT (name) DO UPDATE SET label = excluded.label, colour = excluded.colour,
            description = excluded.description, revision = excluded.revision, removed = 0
          WHERE (types.label, types.colour, types.description, types.removed) IS DISTINCT FROM
            (excluded.label, excluded.colour, excluded.description, 0)
          RETURNING 1
          """
        ).count
      }
      for card in cards {
        let existed = try await db.rows("SELECT removed FROM cards WHERE id = \(card.id)")
          .first?.decode(Int32.self)
        let written = try await db.rows(
          """
          INSERT INTO cards (id, type, title, body, source, url, reveal, published_at, revision)
          VALUES (\(card.id), \(card.type), \(card.title), \(card.body ?? ""), \(card.source),
            \(card.url), \(card.reveal), \(now), \(revision))
          ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title,
            body = excluded.body, source = excluded.source, url = excluded.url,
            reveal = excluded.reveal, revision = excluded.revision, removed = 0,
            published_at = CASE WHEN cards.removed <> 0 THEN excluded.published_at
              ELSE cards.published_at END
          WHERE (cards.type, cards.title, cards.body, cards.source, cards.url, cards.reveal,
            cards.removed) IS DISTINCT FROM (excluded.type, excluded.title, excluded.body,
            excluded.source, excluded.url, excluded.reveal, 0)
          RETURNING 1
          """
        ).count
        if written > 0 {
          if existed == nil || existed == 1 { report.added += 1 } else { report.changed += 1 }
        }
      }
      let listed = cards.map(\.id)
      report.removed = try await db.rows(
        """
        UPDATE cards SET removed = 1, revision = \(revision)
        WHERE removed = 0 AND NOT (id = ANY(\(listed))) RETURNING 1
        """
      ).count
      return (report, report != LoadReport() || typesChanged > 0)
    }
  }

  // MARK: - Operators

  public func score(cardId: String, score: Double, at time: Int64) async throws -> Bool {
    try await changing { db, revision in
      let known = try await db.rows(
        "SELECT 1 FROM cards WHERE id = \(cardId) AND removed = 0"
      ).count
      guard known > 0 else { return (false, false) }
      try await db.run(
        """
        INSERT INTO scores (card_id, score, scored_at, revision)
        VALUES (\(cardId), \(score), \(time), \(revision))
        ON CONFLICT (card_id) DO UPDATE SET score = excluded.score,
          scored_at = excluded.scored_at, revision = excluded.revision
        """)
      return (true, true)
    }
  }

  public func notify(id: String, text: String, at time: Int64) async throws {
    try await changing { db, revision in
      try await db.run(
        """
        INSERT INTO notifications (id, text, created_at, revision)
        VALUES (\(id), \(text), \(time), \(revision))
        ON CONFLICT (id) DO UPDATE SET text = excluded.text, created_at = excluded.created_at,
          revision = excluded.revision
        """)
      return ((), true)
    }
  }

  public func setStatus(install: String, to status: String) async throws -> Bool {
    try await changing(for: install) { db, _ in
      let known =
        try await db.rows(
          "UPDATE installs SET status = \(status) WHERE install_id = \(install) RETURNING 1"
        ).count > 0
      return (known, known)
    }
  }
}
