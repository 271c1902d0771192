import CTFOWire
import SQL

/// The personaliser on SQLite: the evidence kept in `card_evidence` and `card_pairs` as
/// reactions arrive (in `record`'s transaction), installs waiting for new scores in
/// `rescore_queue`, and the scores made off the request path (`rescorePending`), each install's
/// in a transaction of its own stamped on the install.
extension SQLiteCardStore {
  /// The schema the personaliser adds (a migration), begun from the reactions held.
  static let personalisationMigration = """
    CREATE TABLE card_evidence (
      card_id TEXT PRIMARY KEY, ctfo INTEGER NOT NULL DEFAULT 0, tfu INTEGER NOT NULL DEFAULT 0,
      tifb INTEGER NOT NULL DEFAULT 0, liked REAL NOT NULL DEFAULT 0,
      disliked REAL NOT NULL DEFAULT 0, at INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE card_pairs (
      first TEXT NOT NULL, second TEXT NOT NULL, n REAL NOT NULL, ab REAL NOT NULL,
      a REAL NOT NULL, b REAL NOT NULL, aa REAL NOT NULL, bb REAL NOT NULL,
      PRIMARY KEY (first, second)) WITHOUT ROWID;
    CREATE INDEX card_pairs_by_second ON card_pairs(second);
    CREATE TABLE rescore_queue (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, install_id TEXT NOT NULL UNIQUE);
    CREATE INDEX reactions_by_time ON reactions(install_id, time);
    INSERT INTO card_evidence (card_id, ctfo, tfu, tifb, liked, disliked, at)
      SELECT card_id, SUM(reaction = 'CTFO'), SUM(reaction = 'TFU'), SUM(reaction = 'TIFB'),
        SUM(CASE reaction WHEN 'CTFO' THEN 1.0 WHEN 'TFU' THEN 0.5 ELSE 0 END),
        SUM(CASE reaction WHEN 'CTFO' THEN 0 WHEN 'TFU' THEN 0.5 ELSE 1.0 END), MAX(time)
      FROM reactions GROUP BY card_id;
    INSERT INTO card_pairs (first, second, n, ab, a, b, aa, bb)
      SELECT x.card_id, y.card_id, COUNT(*), SUM(x.w * y.w), SUM(x.w), SUM(y.w),
        SUM(x.w * x.w), SUM(y.w * y.w)
      FROM (SELECT install_id, card_id, CASE reaction WHEN 'CTFO' THEN 1.0 WHEN 'TFU' THEN 0.5
          ELSE 0 END AS w FROM reactions) x
      JOIN (SELECT install_id, card_id, CASE reaction WHEN 'CTFO' THEN 1.0 WHEN 'TFU' THEN 0.5
          ELSE 0 END AS w FROM reactions) y
        ON x.install_id = y.install_id AND x.card_id < y.card_id
      GROUP BY x.card_id, y.card_id;
    """

  /// Adds an install's final reaction to `card` (`weight`, at `time`, replacing `old`) to the
  /// evidence, in the caller's transaction, before the reaction is stored; queues the install.
  static func learn(
    install: String, card: String, weight: Double, at time: Int64,
    old: (weight: Double, time: Int64)?, settings: PersonalisationSettings, _ db: Connection
  ) throws {
    let others = try db.rows(
      """
      SELECT card_id, reaction FROM reactions WHERE install_id = ? AND card_id != ?
      ORDER BY time DESC LIMIT ?
      """, [.text(install), .text(card), .integer(Int64(settings.pairsPerReaction))]
    ) { (card: $0.text(0) ?? "", weight: Reactions.weights[$0.text(1) ?? ""] ?? 0) }
    var evidence = SQLiteEvidence(settings: settings)
    evidence.cards[card] = try readCard(card, db)
    for other in others {
      let (key, _) = PairKey.of(card, other.card)
      evidence.pairs[key] = try readPair(key, db) ?? PairStats()
    }
    evidence.react(card: card, weight: weight, at: time, old: old, others: others)
    if let held = evidence.cards[card] {
      try db.run(
        """
        INSERT OR REPLACE INTO card_evidence (card_id, ctfo, tfu, tifb, liked, disliked, at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(card), .integer(Int64(held.ctfo)), .integer(Int64(held.tfu)),
          .integer(Int64(held.tifb)), .real(held.liked), .real(held.disliked), .integer(held.at),
        ])
    }
    let write = try db.statement(
      "INSERT OR REPLACE INTO card_pairs (first, second, n, ab, a, b, aa, bb) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    for (key, stats) in evidence.pairs {
      try write.run([
        .text(key.first), .text(key.second), .real(stats.n), .real(stats.ab), .real(stats.a),
        .real(stats.b), .real(stats.aa), .real(stats.bb),
      ])
    }
    try queueRescore(install: install, db)
  }

  /// Asks for new scores for `install`, made off the request path by `rescorePending`.
  /// Queued again while its scores are made, it stays queued (a new `seq`).
  static func queueRescore(install: String, _ db: Connection) throws {
    try db.run("INSERT OR REPLACE INTO rescore_queue (install_id) VALUES (?)", [.text(install)])
  }

  /// Queues every install active since `since` for new scores (the population's evidence
  /// moved); returns how many.
  public func queueActive(since: Int64) throws -> Int {
    try lane.run { db in
      try db.run(
        """
        INSERT OR IGNORE INTO rescore_queue (install_id)
        SELECT install_id FROM dash_installs WHERE last_seen >= ? ORDER BY last_seen DESC
        """, [.integer(since)])
      return db.changes
    }
  }

  /// Makes new scores for up to `limit` queued installs, each in a transaction of its own;
  /// returns how many were made. Any process on the store may run it: an install queued again
  /// while its scores were made stays queued.
  public func rescorePending(limit: Int, at time: Int64) throws -> Int {
    let queued = try lane.run { db in
      try db.rows(
        "SELECT install_id, seq FROM rescore_queue ORDER BY seq LIMIT ?", [.integer(Int64(limit))]
      ) { (install: $0.text(0) ?? "", seq: $0.integer(1)) }
    }
    for entry in queued {
      try changing(for: entry.install) { db, revision in
        let changed = try Self.rescore(
          install: entry.install, at: time, revision: revision, settings: personalisation, db)
        try db.run(
          "DELETE FROM rescore_queue WHERE seq = ?", [.integer(entry.seq)])
        return ((), changed > 0)
      }
    }
    return queued.count
  }

  /// Ranks the install's unseen cards and writes its scores; returns how many changed.
  static func rescore(
    install: String, at time: Int64, revision: Int64, settings: PersonalisationSettings,
    _ db: Connection
  ) throws -> Int {
    let known = try db.rows("SELECT 1 FROM installs WHERE install_id = ?", [.text(install)]) {
      $0.integer(0)
    }
    guard !known.isEmpty else { return 0 }
    let mine = try db.rows(
      "SELECT card_id, reaction FROM reactions WHERE install_id = ? ORDER BY time DESC LIMIT ?",
      [.text(install), .integer(Int64(settings.pairsPerReaction))]
    ) { (card: $0.text(0) ?? "", weight: Reactions.weights[$0.text(1) ?? ""] ?? 0) }
    var unseen: [String: [String]] = [:]
    var evidence = SQLiteEvidence(settings: settings)
    try db.rows(
      """
      SELECT c.id, c.type, e.ctfo, e.tfu, e.tifb, e.liked, e.disliked, e.at FROM cards c
      LEFT JOIN card_evidence e ON e.card_id = c.id
      WHERE c.removed = 0
        AND NOT EXISTS (SELECT 1 FROM seen s WHERE s.install_id = ? AND s.card_id = c.id)
      """, [.text(install)]
    ) { row in
      let card = row.text(0) ?? ""
      unseen[row.text(1) ?? "", default: []].append(card)
      if !row.isNull(2) { evidence.cards[card] = Self.cardEvidence(row, from: 2) }
      return ()
    }
    for reaction in mine {
      if let held = try readCard(reaction.card, db) { evidence.cards[reaction.card] = held }
      try db.rows(
        """
        SELECT first, second, n, ab, a, b, aa, bb FROM card_pairs WHERE first = ?1
        UNION ALL SELECT first, second, n, ab, a, b, aa, bb FROM card_pairs WHERE second = ?1
        """, [.text(reaction.card)]
      ) { row in
        let (key, _) = PairKey.of(row.text(0) ?? "", row.text(1) ?? "")
        evidence.pairs[key] = PairStats(
          n: row.real(2), ab: row.real(3), a: row.real(4), b: row.real(5), aa: row.real(6),
          bb: row.real(7))
        return ()
      }
    }
    let totals = try db.rows("SELECT SUM(ctfo), SUM(tfu), SUM(tifb) FROM card_evidence") {
      (Double($0.integer(0)), Double($0.integer(1)), Double($0.integer(2)))
    }.first ?? (0, 0, 0)
    evidence.totalWeight = totals.0 + 0.5 * totals.1
    evidence.totalCount = Int(totals.0 + totals.1 + totals.2)
    let titles = Dictionary(
      try mine.compactMap { reaction in
        try db.rows("SELECT title FROM cards WHERE id = ?", [.text(reaction.card)]) {
          $0.text(0)
        }.first.flatMap { $0.map { (reaction.card, $0) } }
      }, uniquingKeysWith: { a, _ in a })
    var random = SeededRandom(seed: settings.seed, install, String(revision))
    let ranked = Ranker(settings: settings).rank(
      unseen: unseen, reactions: mine, evidence: evidence, titles: { titles[$0] }, at: time,
      random: &random)
    let previous = try db.rows(
      "SELECT card_id, score FROM user_scores WHERE install_id = ? AND score >= 1",
      [.text(install)]
    ) { (card: $0.text(0) ?? "", score: $0.real(1)) }
    let write = try db.statement(
      """
      INSERT INTO user_scores (install_id, card_id, score, scored_at, reason, revision)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (install_id, card_id) DO UPDATE SET score = excluded.score,
        scored_at = excluded.scored_at, reason = excluded.reason, revision = excluded.revision
      WHERE user_scores.score != excluded.score OR user_scores.reason IS NOT excluded.reason
      """)
    var changed = 0
    for entry in Ranker.writes(ranked: ranked, previous: previous) {
      try write.run([
        .text(install), .text(entry.card), .real(entry.score), .integer(time),
        entry.reason.isEmpty ? .null : .text(entry.reason), .integer(revision),
      ])
      changed += db.changes
    }
    return changed
  }

  private static func readCard(_ card: String, _ db: Connection) throws -> CardEvidence? {
    try db.rows(
      "SELECT card_id, ctfo, tfu, tifb, liked, disliked, at FROM card_evidence WHERE card_id = ?",
      [.text(card)]
    ) { cardEvidence($0, from: 1) }.first
  }

  private static func cardEvidence(_ row: Statement, from i: Int32) -> CardEvidence {
    CardEvidence(
      ctfo: Int(row.integer(i)), tfu: Int(row.integer(i + 1)), tifb: Int(row.integer(i + 2)),
      liked: row.real(i + 3), disliked: row.real(i + 4), at: row.integer(i + 5))
  }

  private static func readPair(_ key: PairKey, _ db: Connection) throws -> PairStats? {
    try db.rows(
      "SELECT n, ab, a, b, aa, bb FROM card_pairs WHERE first = ? AND second = ?",
      [.text(key.first), .text(key.second)]
    ) {
      PairStats(
        n: $0.real(0), ab: $0.real(1), a: $0.real(2), b: $0.real(3), aa: $0.real(4),
        bb: $0.real(5))
    }.first
  }
}

/// Evidence read from a store's tables for one reaction or one install's ranking.
struct SQLiteEvidence: EvidenceView {
  var cards: [String: CardEvidence] = [:]
  var pairs: [PairKey: PairStats] = [:]
  var totalWeight = 0.0
  var totalCount = 0
  let settings: PersonalisationSettings

  init(settings: PersonalisationSettings) { self.settings = settings }

  func card(_ id: String) -> CardEvidence? { cards[id] }

  func pair(_ x: String, _ y: String) -> PairStats? {
    let (key, swapped) = PairKey.of(x, y)
    guard let stats = pairs[key] else { return nil }
    return swapped ? stats.swapped : stats
  }

  var meanWeight: Double { (totalWeight + 1) / (Double(totalCount) + 2) }

  /// `Evidence.react` on the rows read.
  mutating func react(
    card: String, weight: Double, at time: Int64, old: (weight: Double, time: Int64)?,
    others: [(card: String, weight: Double)]
  ) {
    var memory = Evidence(settings: settings)
    memory.load(cards: cards, pairs: pairs)
    memory.react(card: card, weight: weight, at: time, old: old, others: others)
    cards = memory.cards
    pairs = memory.pairs
  }
}

