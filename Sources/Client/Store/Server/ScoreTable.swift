import FeedCore
import SQL
import CTFOWire

/// The server's scores: on the server's cards (`score`, `scored_at`, `score_reason`), and in
/// `pending_scores` for a card not yet here.
enum ScoreTable {
  /// Keeps `score` when it is later than the one held (by `scoredAt`, then by value) and the
  /// card was never shown; a score for a card not yet here waits for it. True when kept.
  static func keep(_ score: Wire.Score, _ db: Connection) throws -> Bool {
    let deckPath = ServerStore.deckPath
    let values: [SQLiteValue] = [
      .real(score.score), .real(Double(score.scoredAt)), .text(score.cardId),
      .text(score.reason.map { String($0.prefix(200)) }),
    ]
    let seen = try db.rows(
      "SELECT 1 FROM history WHERE card_id = ? LIMIT 1", [.text(score.cardId)]
    ) { _ in true }
    if !seen.isEmpty { return false }
    let exists = try db.rows(
      "SELECT 1 FROM cards WHERE id = ? AND +deck = (SELECT id FROM decks WHERE path = ?)",
      [.text(score.cardId), .text(deckPath)]
    ) { _ in true }
    if exists.isEmpty {
      try db.run(
        "INSERT INTO pending_scores (score, scored_at, card_id, reason) VALUES (?, ?, ?, ?) "
          + "ON CONFLICT (card_id) DO UPDATE SET score = excluded.score, "
          + "scored_at = excluded.scored_at, reason = excluded.reason WHERE (scored_at, score) < "
          + "(excluded.scored_at, excluded.score)", values)
      return db.changes > 0
    }
    try db.run(
      "UPDATE cards SET score = ?1, scored_at = ?2, score_reason = ?4 WHERE id = ?3 "
        + "AND +deck = (SELECT id FROM decks WHERE path = '\(deckPath)') "
        + "AND (scored_at IS NULL OR (scored_at, score) < (?2, ?1))", values)
    return db.changes > 0
  }

  /// Scores that came before their card, moved onto the cards that are here now.
  static func adoptPending(_ db: Connection) throws {
    let deckPath = ServerStore.deckPath
    let pending = try db.rows("SELECT EXISTS (SELECT 1 FROM pending_scores)") { $0.integer(0) }
    guard pending.first == 1 else { return }
    try db.run(
      "UPDATE cards SET score = p.score, scored_at = p.scored_at, score_reason = p.reason "
        + "FROM pending_scores AS p "
        + "WHERE cards.id = p.card_id AND +cards.deck = (SELECT id FROM decks WHERE path = ?) "
        + "AND (cards.scored_at IS NULL OR (cards.scored_at, cards.score) < "
        + "(p.scored_at, p.score))", [.text(deckPath)])
    // Probing the cards for each pending score, not listing every server card: this runs in
    // the transaction a swipe's commit waits behind.
    try db.run(
      "DELETE FROM pending_scores WHERE EXISTS (SELECT 1 FROM cards WHERE cards.id = "
        + "pending_scores.card_id AND +cards.deck = (SELECT id FROM decks WHERE path = ?))",
      [.text(deckPath)])
  }

  /// Every server score dropped, on the cards and pending (another feed's scores come).
  static func forgetAll(_ db: Connection) throws {
    try db.run(
      "UPDATE cards SET score = NULL, scored_at = NULL, score_reason = NULL "
        + "WHERE +deck = (SELECT id FROM decks WHERE path = ?) AND score IS NOT NULL",
      [.text(ServerStore.deckPath)])
    try forgetPending(db)
  }

  static func forgetPending(_ db: Connection) throws {
    try db.run("DELETE FROM pending_scores")
  }
}

extension ServerStore {
  /// The server scores of the cards of `types` never shown, by type and ordinal: what the
  /// feed's pools start from.
  public func scores(of types: Set<String>) throws -> [PoolScore] {
    try database.read { db in
      try db.rows(
        "SELECT type, ordinal, score, scored_at, id FROM cards WHERE score IS NOT NULL "
          + "AND ordinal IS NOT NULL AND NOT EXISTS "
          + "(SELECT 1 FROM history WHERE history.card_id = cards.id)"
      ) { row in
        PoolScore(
          type: row.text(0) ?? "", ordinal: Int(row.integer(1)),
          score: ScoredPool.Score(value: row.real(2), timestamp: row.real(3)), id: row.text(4))
      }.filter { types.contains($0.type) }
    }
  }
}
