import CTFOWire
import SQL

extension SQLiteCardStore {
  public func revision(install: String?, feed: PullFeed) throws -> Int64 {
    let install = feed == .hot ? install : nil
    let generation = reads.revisions.generation
    let revision = try lane.run { db in
      try db.rows(
        "SELECT MAX(CAST(value AS INTEGER), COALESCE((SELECT revision FROM installs "
          + "WHERE install_id = ?), 0)) FROM meta WHERE key = 'shared_revision'",
        [.text(install)]
      ) { $0.integer(0) }.first ?? 0
    }
    reads.revisions.remember(
      revision, for: PullReads.Key(install: install, feed: feed), readAt: generation)
    return revision
  }

  /// The store's epoch, made with the store and never changed: read once.
  public func epoch() throws -> String {
    if let known = knownEpoch.withLock({ $0 }) { return known }
    let epoch = try lane.run { db in
      try db.rows("SELECT value FROM meta WHERE key = 'epoch'") { $0.text(0) ?? "" }.first ?? ""
    }
    knownEpoch.withLock { $0 = epoch }
    return epoch
  }

  static func revision(_ db: Connection) throws -> Int64 {
    try db.rows("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'revision'") {
      $0.integer(0)
    }.first ?? 0
  }

  /// Runs `body` in a write transaction with the next revision; the revision is kept only if
  /// `body` changed something, and stamped on `install` when only that install receives the
  /// change, else on what every client receives.
  func changing<T: Sendable>(
    for install: String? = nil, _ body: (Connection, Int64) throws -> (T, changed: Bool)
  ) throws -> T {
    defer { reads.forget() }
    return try lane.run { db in
      try db.transaction(immediate: true) {
        let next = try Self.revision(db) + 1
        let (result, changed) = try body(db, next)
        if changed {
          try db.run(
            "UPDATE meta SET value = ? WHERE key = 'revision'", [.text(String(next))])
          if let install {
            try db.run(
              "UPDATE installs SET revision = ? WHERE install_id = ?",
              [.integer(next), .text(install)])
          } else {
            try db.run(
              "UPDATE meta SET value = ? WHERE key = 'shared_revision'", [.text(String(next))])
          }
        }
        return result
      }
    }
  }

  // MARK: - Pulls

  public func changes(
    since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?
  ) throws -> Changes {
    try lane.run { db in
      try db.transaction(immediate: false) {
        let since = revision ?? -1
        var changes = Changes(full: revision == nil)
        changes.types = try db.rows(
          "SELECT name, label, colour, description FROM types WHERE revision > ? AND removed = 0 "
            + "ORDER BY name", [.integer(since)]
        ) {
          Wire.CardType(
            name: $0.text(0) ?? "", label: $0.text(1), colour: $0.text(2), description: $0.text(3))
        }
        let order =
          feed == .hot
          ? "ORDER BY s.score IS NULL, s.score DESC, c.id" : "ORDER BY c.published_at DESC, c.id"
        let rows = try db.rows(
          "SELECT c.id, c.type, c.title, c.body, c.source, c.url, c.reveal, c.published_at, "
            + "c.removed FROM cards c LEFT JOIN scores s ON s.card_id = c.id "
            + "WHERE c.revision > ? \(order)", [.integer(since)]
        ) { row in
          (
            card: Wire.Card(
              id: row.text(0) ?? "", type: row.text(1) ?? "", title: row.text(2),
              body: row.text(3), source: row.text(4), url: row.text(5), reveal: row.text(6),
              publishedAt: row.integer(7)),
            removed: row.integer(8) != 0
          )
        }
        for row in rows {
          if row.removed {
            if revision != nil { changes.removed.append(row.card.id) }
            continue
          }
          var card = row.card
          if let body = card.body, body.utf8.count > bodyLimit {
            card.body = nil
            card.bodyOmitted = true
          }
          changes.cards.append(card)
        }
        changes.scores = try scores(db, since: since, feed: feed, sent: changes.cards)
        if feed == .hot, let install {
          changes.scores += try Self.userScores(db, install: install, since: since)
        }
        if let install {
          changes.userStatus =
            try db.rows(
              "SELECT status FROM installs WHERE install_id = ?", [.text(install)]
            ) { $0.text(0) }.first ?? nil
        }
        changes.notifications = try db.rows(
          "SELECT id, text, created_at FROM notifications ORDER BY created_at DESC, id LIMIT 100"
        ) {
          Wire.Notification(id: $0.text(0) ?? "", text: $0.text(1) ?? "", createdAt: $0.integer(2))
        }
        return changes
      }
    }
  }

  public func ownChanges(install: String, feed: PullFeed) throws -> Changes {
    try lane.run { db in
      try db.transaction(immediate: false) {
        var own = Changes(full: true)
        if feed == .hot { own.scores = try Self.userScores(db, install: install, since: -1) }
        own.userStatus =
          try db.rows(
            "SELECT status FROM installs WHERE install_id = ?", [.text(install)]
          ) { $0.text(0) }.first ?? nil
        return own
      }
    }
  }

  /// `hot`: the operator's scores changed since `since`; `recent`: each card sent scored by
  /// its time of publication, so the client deals the newest first.
  func scores(
    _ db: Connection, since: Int64, feed: PullFeed, sent: [Wire.Card]
  ) throws -> [Wire.Score] {
    guard feed == .hot else {
      return sent.map { card in
        let time = card.publishedAt ?? 0
        return Wire.Score(cardId: card.id, score: Double(time) / 1000, scoredAt: time)
      }
    }
    // `+s.card_id`: the rows come from the revision's index, not a walk of every score in
    // card order (what SQLite picks otherwise, to spare the sort).
    return try db.rows(
      "SELECT s.card_id, s.score, s.scored_at FROM scores s JOIN cards c ON c.id = s.card_id "
        + "WHERE s.revision > ? AND c.removed = 0 ORDER BY +s.card_id", [.integer(since)]
    ) { Wire.Score(cardId: $0.text(0) ?? "", score: $0.real(1), scoredAt: $0.integer(2)) }
  }

  public func card(id: String) throws -> Wire.Card? {
    try lane.run { db in
      try db.rows(
        "SELECT id, type, title, body, source, url, reveal, published_at FROM cards "
          + "WHERE id = ? AND removed = 0", [.text(id)]
      ) { row in
        Wire.Card(
          id: row.text(0) ?? "", type: row.text(1) ?? "", title: row.text(2), body: row.text(3),
          source: row.text(4), url: row.text(5), reveal: row.text(6), publishedAt: row.integer(7))
      }.first
    }
  }

  // MARK: - At once

  // SQLite answers on the caller's thread: every answer is at once. What was read less than a
  // second ago is answered from memory (`PullReads`): each query's read transaction takes
  // SQLite's file locks and the connection's lane, which the event loops contend for.
  public func epochAtOnce() -> String? { try? epoch() }
  public func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? {
    reads.revisions.value(for: PullReads.Key(install: feed == .hot ? install : nil, feed: feed))
      ?? (try? revision(install: install, feed: feed))
  }
  public func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? {
    try? install(forToken: hash, at: time)
  }
  public func ownChangesAtOnce(install: String, feed: PullFeed, revision: Int64) -> Changes? {
    let key = PullReads.Key(install: install, feed: feed)
    if let kept = reads.ownChanges.value(for: key), kept.revision == revision {
      return kept.changes
    }
    let generation = reads.ownChanges.generation
    guard let own = try? ownChanges(install: install, feed: feed) else { return nil }
    reads.ownChanges.remember((revision, own), for: key, readAt: generation)
    return own
  }
}
