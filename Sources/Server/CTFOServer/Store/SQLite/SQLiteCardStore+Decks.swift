import CTFOWire
import SQL

extension SQLiteCardStore {
  public func load(cards: [Wire.Card], types: [Wire.CardType]) throws -> LoadReport {
    let now = Clock.milliseconds()
    return try changing { db, revision in
      var report = LoadReport()
      var typesChanged = 0
      for type in types {
        try db.run(
          "INSERT INTO types (name, label, colour, description, revision) VALUES (?, ?, ?, ?, ?) "
            + "ON CONFLICT (name) DO UPDATE SET label = excluded.label, colour = excluded.colour, "
            + "description = excluded.description, revision = excluded.revision, removed = 0 "
            + "WHERE (label, colour, description, removed) IS NOT "
            + "(excluded.label, excluded.colour, excluded.description, 0)",
          [
            .text(type.name), .text(type.label), .text(type.colour), .text(type.description),
            .integer(revision),
          ])
        typesChanged += db.changes
      }
      try db.execute(
        "CREATE TEMP TABLE IF NOT EXISTS listed (id TEXT PRIMARY KEY); DELETE FROM listed;")
      let list = try db.statement("INSERT OR IGNORE INTO listed (id) VALUES (?)")
      for card in cards {
        try list.run([.text(card.id)])
        let values: [SQLiteValue] = [
          .text(card.id), .text(card.type), .text(card.title), .text(card.body ?? ""),
          .text(card.source), .text(card.url), .text(card.reveal), .integer(now),
          .integer(revision),
        ]
        let existed = try db.rows("SELECT removed FROM cards WHERE id = ?", [.text(card.id)]) {
          $0.integer(0)
        }.first
        try db.run(
          "INSERT INTO cards (id, type, title, body, source, url, reveal, published_at, revision) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
            + "type = excluded.type, title = excluded.title, body = excluded.body, "
            + "source = excluded.source, url = excluded.url, reveal = excluded.reveal, "
            + "revision = excluded.revision, removed = 0, published_at = CASE WHEN removed "
            + "THEN excluded.published_at ELSE published_at END "
            + "WHERE (type, title, body, source, url, reveal, removed) IS NOT (excluded.type, "
            + "excluded.title, excluded.body, excluded.source, excluded.url, excluded.reveal, 0)",
          values)
        if db.changes > 0 {
          if existed == nil || existed == 1 { report.added += 1 } else { report.changed += 1 }
        }
      }
      try db.run(
        "UPDATE cards SET removed = 1, revision = ? WHERE removed = 0 "
          + "AND id NOT IN (SELECT id FROM listed)", [.integer(revision)])
      report.removed = db.changes
      return (report, report != LoadReport() || typesChanged > 0)
    }
  }

  // MARK: - Operators

  public func score(cardId: String, score: Double, at time: Int64) throws -> Bool {
    try changing { db, revision in
      let known = try db.rows("SELECT 1 FROM cards WHERE id = ? AND removed = 0", [.text(cardId)]) {
        _ in true
      }
      guard !known.isEmpty else { return (false, false) }
      try db.run(
        "INSERT OR REPLACE INTO scores (card_id, score, scored_at, revision) VALUES (?, ?, ?, ?)",
        [.text(cardId), .real(score), .integer(time), .integer(revision)])
      return (true, true)
    }
  }

  public func notify(id: String, text: String, at time: Int64) throws {
    try changing { db, revision in
      try db.run(
        "INSERT OR REPLACE INTO notifications (id, text, created_at, revision) VALUES (?, ?, ?, ?)",
        [.text(id), .text(text), .integer(time), .integer(revision)])
      return ((), true)
    }
  }

  public func setStatus(install: String, to status: String) throws -> Bool {
    try changing(for: install) { db, _ in
      try db.run(
        "UPDATE installs SET status = ? WHERE install_id = ?", [.text(status), .text(install)])
      let known = db.changes > 0
      return (known, known)
    }
  }
}
