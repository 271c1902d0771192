import PostgresNIO

/// The personaliser on PostgreSQL, as on SQLite (`SQLiteCardStore+Personalisation`): the
/// evidence in `card_evidence` and `card_pairs`, kept in `record`'s transaction (which holds
/// the state row, so the processes on one database add to it one at a time); installs
/// waiting for new scores in `rescore_queue`, taken by any process (`FOR UPDATE SKIP LOCKED`).
extension PostgresCardStore {
  static let personalisationMigration: [PostgresQuery] = [
    """
    CREATE TABLE card_evidence (
      card_id TEXT COLLATE "C" PRIMARY KEY, ctfo BIGINT NOT NULL DEFAULT 0,
      tfu BIGINT NOT NULL DEFAULT 0, tifb BIGINT NOT NULL DEFAULT 0,
      liked DOUBLE PRECISION NOT NULL DEFAULT 0, disliked DOUBLE PRECISION NOT NULL DEFAULT 0,
      at BIGINT NOT NULL DEFAULT 0)
    """,
    """
    CREATE TABLE card_pairs (
      first TEXT COLLATE "C" NOT NULL, second TEXT COLLATE "C" NOT NULL,
      n DOUBLE PRECISION NOT NULL, ab DOUBLE PRECISION NOT NULL, a DOUBLE PRECISION NOT NULL,
      b DOUBLE PRECISION NOT NULL, aa DOUBLE PRECISION NOT NULL, bb DOUBLE PRECISION NOT NULL,
      PRIMARY KEY (first, second))
    """,
    "CREATE INDEX card_pairs_by_second ON card_pairs (second)",
    """
    CREATE TABLE rescore_queue (
      seq BIGSERIAL PRIMARY KEY, install_id TEXT COLLATE "C" NOT NULL UNIQUE)
    """,
    "CREATE INDEX reactions_by_time ON reactions (install_id, time)",
    """
    INSERT INTO card_evidence (card_id, ctfo, tfu, tifb, liked, disliked, at)
    SELECT card_id, COUNT(*) FILTER (WHERE reaction = 'CTFO'),
      COUNT(*) FILTER (WHERE reaction = 'TFU'), COUNT(*) FILTER (WHERE reaction = 'TIFB'),
      SUM(CASE reaction WHEN 'CTFO' THEN 1.0 WHEN 'TFU' THEN 0.5 ELSE 0 END),
      SUM(CASE reaction WHEN 'CTFO' THEN 0 WHEN 'TFU' THEN 0.5 ELSE 1.0 END), MAX(time)
    FROM reactions GROUP BY card_id
    """,
  ]

  /// `SQLiteCardStore.learn` on PostgreSQL, in `record`'s transaction.
  static func learn(
    install: String, card: String, weight: Double, at time: Int64,
    old: (weight: Double, time: Int64)?, settings: PersonalisationSettings,
    _ db: PostgresConnection
  ) async throws {
    var others: [(card: String, weight: Double)] = []
    for row in try await db.rows(
      """
      SELECT card_id, reaction FROM reactions WHERE install_id = \(install) AND card_id <> \(card)
      ORDER BY time DESC LIMIT \(settings.pairsPerReaction)
      """)
    {
      let (other, reaction) = try row.decode((String, String).self)
      others.append((other, Reactions.weights[reaction] ?? 0))
    }
    var evidence = SQLiteEvidence(settings: settings)
    evidence.cards[card] = try await readCard(card, db)
    let keys = others.map { PairKey.of(card, $0.card).key }
    for row in try await db.rows(
      """
      SELECT p.first, p.second, p.n, p.ab, p.a, p.b, p.aa, p.bb FROM card_pairs p
      JOIN UNNEST(\(keys.map(\.first))::text[], \(keys.map(\.second))::text[]) AS k(first, second)
        ON p.first = k.first AND p.second = k.second
      """)
    {
      let (first, second, n, ab, a, b, aa, bb) = try row.decode(
        (String, String, Double, Double, Double, Double, Double, Double).self)
      evidence.pairs[PairKey.of(first, second).key] = PairStats(
        n: n, ab: ab, a: a, b: b, aa: aa, bb: bb)
    }
    evidence.react(card: card, weight: weight, at: time, old: old, others: others)
    if let held = evidence.cards[card] {
      try await db.run(
        """
        INSERT INTO card_evidence (card_id, ctfo, tfu, tifb, liked, disliked, at)
        VALUES (\(card), \(held.ctfo), \(held.tfu), \(held.tifb), \(held.liked),
          \(held.disliked), \(held.at))
        ON CONFLICT (card_id) DO UPDATE SET ctfo = excluded.ctfo, tfu = excluded.tfu,
          tifb = excluded.tifb, liked = excluded.liked, disliked = excluded.disliked,
          at = excluded.at
        """)
    }
    let pairs = Array(evidence.pairs)
    if !pairs.isEmpty {
      try await db.run(
        """
        INSERT INTO card_pairs (first, second, n, ab, a, b, aa, bb)
        SELECT * FROM UNNEST(\(pairs.map(\.key.first))::text[], \(pairs.map(\.key.second))::text[],
          \(pairs.map(\.value.n))::float8[], \(pairs.map(\.value.ab))::float8[],
          \(pairs.map(\.value.a))::float8[], \(pairs.map(\.value.b))::float8[],
          \(pairs.map(\.value.aa))::float8[], \(pairs.map(\.value.bb))::float8[])
        ON CONFLICT (first, second) DO UPDATE SET n = excluded.n, ab = excluded.ab,
          a = excluded.a, b = excluded.b, aa = excluded.aa, bb = excluded.bb
        """)
    }
    try await queueRescore(install: install, db)
  }

  static func queueRescore(install: String, _ db: PostgresConnection) async throws {
    try await db.run(
      """
      INSERT INTO rescore_queue (install_id) VALUES (\(install))
      ON CONFLICT (install_id) DO UPDATE SET seq = nextval('rescore_queue_seq_seq')
      """)
  }

  public func queueActive(since: Int64) async throws -> Int {
    try await client.withConnection { db in
      let count = try await db.rows(
        """
        WITH queued AS (
          INSERT INTO rescore_queue (install_id)
          SELECT install_id FROM dash_installs WHERE last_seen >= \(since)
          ON CONFLICT (install_id) DO NOTHING RETURNING 1)
        SELECT COUNT(*)::BIGINT FROM queued
        """
      ).first?.decode(Int64.self)
      return Int(count ?? 0)
    }
  }

  /// Makes new scores for up to `limit` queued installs, each in a transaction of its own.
  public func rescorePending(limit: Int, at time: Int64) async throws -> Int {
    let queued = try await client.withConnection { db in
      try await db.rows(
        "SELECT install_id, seq FROM rescore_queue ORDER BY seq LIMIT \(limit)"
      ).map { try $0.decode((String, Int64).self) }
    }
    let settings = personalisation
    for (install, seq) in queued {
      try await changing(for: install) { db, revision in
        // Another process took it: it is done there.
        guard
          try await db.rows(
            "SELECT 1 FROM rescore_queue WHERE seq = \(seq) FOR UPDATE SKIP LOCKED"
          ).first != nil
        else { return ((), false) }
        let changed = try await Self.rescore(
          install: install, at: time, revision: revision, settings: settings, db)
        try await db.run("DELETE FROM rescore_queue WHERE seq = \(seq)")
        return ((), changed > 0)
      }
    }
    return queued.count
  }

  static func rescore(
    install: String, at time: Int64, revision: Int64, settings: PersonalisationSettings,
    _ db: PostgresConnection
  ) async throws -> Int {
    guard
      try await db.rows("SELECT 1 FROM installs WHERE install_id = \(install)").first != nil
    else { return 0 }
    var mine: [(card: String, weight: Double)] = []
    for row in try await db.rows(
      """
      SELECT card_id, reaction FROM reactions WHERE install_id = \(install)
      ORDER BY time DESC LIMIT \(settings.pairsPerReaction)
      """)
    {
      let (card, reaction) = try row.decode((String, String).self)
      mine.append((card, Reactions.weights[reaction] ?? 0))
    }
    var unseen: [String: [String]] = [:]
    var evidence = SQLiteEvidence(settings: settings)
    for row in try await db.rows(
      """
      SELECT c.id, c.type, e.ctfo, e.tfu, e.tifb, e.liked, e.disliked, e.at FROM cards c
      LEFT JOIN card_evidence e ON e.card_id = c.id
      WHERE c.removed = 0
        AND NOT EXISTS (SELECT 1 FROM seen s WHERE s.install_id = \(install) AND s.card_id = c.id)
      """)
    {
      let (card, type, ctfo, tfu, tifb, liked, disliked, at) = try row.decode(
        (String, String, Int64?, Int64?, Int64?, Double?, Double?, Int64?).self)
      unseen[type, default: []].append(card)
      if let ctfo {
        evidence.cards[card] = CardEvidence(
          ctfo: Int(ctfo), tfu: Int(tfu ?? 0), tifb: Int(tifb ?? 0), liked: liked ?? 0,
          disliked: disliked ?? 0, at: at ?? 0)
      }
    }
    let loved = mine.map(\.card)
    for reaction in loved {
      if let held = try await readCard(reaction, db) { evidence.cards[reaction] = held }
    }
    for row in try await db.rows(
      """
      SELECT first, second, n, ab, a, b, aa, bb FROM card_pairs
      WHERE first = ANY(\(loved)) OR second = ANY(\(loved))
      """)
    {
      let (first, second, n, ab, a, b, aa, bb) = try row.decode(
        (String, String, Double, Double, Double, Double, Double, Double).self)
      evidence.pairs[PairKey.of(first, second).key] = PairStats(
        n: n, ab: ab, a: a, b: b, aa: aa, bb: bb)
    }
    if let totals = try await db.rows(
      """
      SELECT COALESCE(SUM(ctfo), 0)::BIGINT, COALESCE(SUM(tfu), 0)::BIGINT,
        COALESCE(SUM(tifb), 0)::BIGINT FROM card_evidence
      """
    ).first {
      let (ctfo, tfu, tifb) = try totals.decode((Int64, Int64, Int64).self)
      evidence.totalWeight = Double(ctfo) + 0.5 * Double(tfu)
      evidence.totalCount = Int(ctfo + tfu + tifb)
    }
    var titles: [String: String] = [:]
    for row in try await db.rows("SELECT id, title FROM cards WHERE id = ANY(\(loved))") {
      let (id, title) = try row.decode((String, String?).self)
      if let title { titles[id] = title }
    }
    var random = SeededRandom(seed: settings.seed, install, String(revision))
    let ranked = Ranker(settings: settings).rank(
      unseen: unseen, reactions: mine, evidence: evidence, titles: { titles[$0] }, at: time,
      random: &random)
    var previous: [(card: String, score: Double)] = []
    for row in try await db.rows(
      "SELECT card_id, score FROM user_scores WHERE install_id = \(install) AND score >= 1")
    {
      let (card, score) = try row.decode((String, Double).self)
      previous.append((card, score))
    }
    var changed = 0
    for entry in Ranker.writes(ranked: ranked, previous: previous) {
      let reason: String? = entry.reason.isEmpty ? nil : entry.reason
      let rows = try await db.rows(
        """
        INSERT INTO user_scores (install_id, card_id, score, scored_at, reason, revision)
        VALUES (\(install), \(entry.card), \(entry.score), \(time), \(reason), \(revision))
        ON CONFLICT (install_id, card_id) DO UPDATE SET score = excluded.score,
          scored_at = excluded.scored_at, reason = excluded.reason, revision = excluded.revision
        WHERE user_scores.score <> excluded.score
          OR user_scores.reason IS DISTINCT FROM excluded.reason
        RETURNING 1
        """)
      changed += rows.count
    }
    return changed
  }

  private static func readCard(_ card: String, _ db: PostgresConnection) async throws
    -> CardEvidence?
  {
    guard
      let row = try await db.rows(
        "SELECT ctfo, tfu, tifb, liked, disliked, at FROM card_evidence WHERE card_id = \(card)"
      ).first
    else { return nil }
    let (ctfo, tfu, tifb, liked, disliked, at) = try row.decode(
      (Int64, Int64, Int64, Double, Double, Int64).self)
    return CardEvidence(
      ctfo: Int(ctfo), tfu: Int(tfu), tifb: Int(tifb), liked: liked, disliked: disliked, at: at)
  }
}
