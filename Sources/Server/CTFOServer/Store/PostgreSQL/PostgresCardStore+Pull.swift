import CTFOWire
import Logging
import PostgresNIO

extension PostgresCardStore {
  public func revision(install: String?, feed: PullFeed) async throws -> Int64 {
    let install = feed == .hot ? install : nil
    let generation = reads.revisions.generation
    let revision = try await client.withConnection { db in
      try await db.rows(
        """
        SELECT GREATEST(shared_revision, COALESCE((SELECT revision FROM installs
          WHERE install_id = \(install)), 0)) FROM state
        """
      ).first?.decode(Int64.self) ?? 0
    }
    reads.revisions.remember(
      revision, for: PullReads.Key(install: install, feed: feed), readAt: generation)
    return revision
  }

  // MARK: - At once

  public func epochAtOnce() -> String? { knownEpoch.withLock { $0 } }

  /// The revision read last, when it was read less than a second ago: a change by any
  /// process reaches a pull answered at once within that second (this process forgets what it
  /// read when it changes the store).
  public func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? {
    reads.revisions.value(for: PullReads.Key(install: feed == .hot ? install : nil, feed: feed))
  }

  public func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? {
    knownTokens.install(Token.hex(hash), at: time)
  }

  /// The store's epoch, made with the store and never changed: read once.
  public func epoch() async throws -> String {
    if let known = knownEpoch.withLock({ $0 }) { return known }
    let epoch = try await client.withConnection { db in
      try await db.rows("SELECT epoch FROM state").first?.decode(String.self) ?? ""
    }
    knownEpoch.withLock { $0 = epoch }
    return epoch
  }

  /// Runs `body` in a transaction with the next revision, holding the lock on it; the
  /// revision is kept only if `body` changed something, and stamped on `install` when only
  /// that install receives the change, else on what every client receives.
  func changing<T: Sendable>(
    for install: String? = nil,
    _ body: (PostgresConnection, Int64) async throws -> (T, changed: Bool)
  ) async throws -> T {
    defer { reads.forget() }
    return try await client.withTransaction(logger: Self.logger) { db in
      let next =
        (try await db.rows("SELECT revision FROM state FOR UPDATE").first?.decode(Int64.self)
          ?? 0) + 1
      let (result, changed) = try await body(db, next)
      if changed {
        try await db.run("UPDATE state SET revision = \(next)")
        if let install {
          try await db.run("UPDATE installs SET revision = \(next) WHERE install_id = \(install)")
        } else {
          try await db.run("UPDATE state SET shared_revision = \(next)")
        }
      }
      return result
    }
  }

  // MARK: - Pulls

  public func changes(
    since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?
  ) async throws -> Changes {
    try await client.withTransaction(logger: Self.logger) { db in
      try await db.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
      let since = revision ?? -1
      var changes = Changes(full: revision == nil)
      for row in try await db.rows(
        """
        SELECT name, label, colour, description FROM types WHERE revision > \(since)
          AND removed = 0 ORDER BY name
        """)
      {
        let (name, label, colour, description) = try row.decode(
          (String, String?, String?, String?).self)
        changes.types.append(
          Wire.CardType(name: name, label: label, colour: colour, description: description))
      }
      let order =
        feed == .hot
        ? "ORDER BY s.score IS NULL, s.score DESC, c.id" : "ORDER BY c.published_at DESC, c.id"
      for row in try await db.rows(
        """
        SELECT c.id, c.type, c.title, c.body, c.source, c.url, c.reveal, c.published_at,
          c.removed FROM cards c LEFT JOIN scores s ON s.card_id = c.id
          WHERE c.revision > \(since) \(unescaped: order)
        """)
      {
        let (id, type, title, body, source, url, reveal, published, removed) = try row.decode(
          (String, String, String?, String?, String?, String?, String?, Int64, Int32).self)
        if removed != 0 {
          if revision != nil { changes.removed.append(id) }
          continue
        }
        var card = Wire.Card(
          id: id, type: type, title: title, body: body, source: source, url: url,
          reveal: reveal, publishedAt: published)
        if let body, body.utf8.count > bodyLimit {
          card.body = nil
          card.bodyOmitted = true
        }
        changes.cards.append(card)
      }
      if feed == .hot {
        for row in try await db.rows(
          """
          SELECT s.card_id, s.score, s.scored_at FROM scores s JOIN cards c ON c.id = s.card_id
          WHERE s.revision > \(since) AND c.removed = 0 ORDER BY s.card_id
          """)
        {
          let (card, score, time) = try row.decode((String, Double, Int64).self)
          changes.scores.append(Wire.Score(cardId: card, score: score, scoredAt: time))
        }
        if let install {
          for row in try await db.rows(
            """
            SELECT u.card_id, u.score, u.scored_at, u.reason FROM user_scores u
            JOIN cards c ON c.id = u.card_id
            WHERE u.install_id = \(install) AND u.revision > \(since) AND c.removed = 0
            ORDER BY u.card_id
            """)
          {
            let (card, score, time, reason) = try row.decode((String, Double, Int64, String?).self)
            changes.scores.append(
              Wire.Score(cardId: card, score: score, scoredAt: time, reason: reason))
          }
        }
      } else {
        changes.scores = changes.cards.map { card in
          let time = card.publishedAt ?? 0
          return Wire.Score(cardId: card.id, score: Double(time) / 1000, scoredAt: time)
        }
      }
      if let install {
        changes.userStatus =
          try await db.rows("SELECT status FROM installs WHERE install_id = \(install)")
          .first?.decode(String?.self) ?? nil
      }
      for row in try await db.rows(
        "SELECT id, text, created_at FROM notifications ORDER BY created_at DESC, id LIMIT 100")
      {
        let (id, text, created) = try row.decode((String, String, Int64).self)
        changes.notifications.append(Wire.Notification(id: id, text: text, createdAt: created))
      }
      return changes
    }
  }

  public func card(id: String) async throws -> Wire.Card? {
    try await client.withConnection { db in
      guard
        let row = try await db.rows(
          """
          SELECT id, type, title, body, source, url, reveal, published_at FROM cards
          WHERE id = \(id) AND removed = 0
          """
        ).first
      else { return nil }
      let (id, type, title, body, source, url, reveal, published) = try row.decode(
        (String, String, String?, String?, String?, String?, String?, Int64).self)
      return Wire.Card(
        id: id, type: type, title: title, body: body, source: source, url: url, reveal: reveal,
        publishedAt: published)
    }
  }
}
