import CTFOWire
import CardText
import FeedCore
import FeedPipeline
import SQL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the state database holds of the CTFO server: the client's session, the server's cards
/// (a deck of their own in the card index), scores, the user's status and notifications.
///
/// A pull is applied with its new cache key in one transaction, so a crash leaves either the
/// old snapshot with the old key or the new one with the new key; applying a pull again is
/// harmless (upserts, last-writer-wins scores).
///
///     let server = ServerStore(database: database)
///     var session = try server.session(for: endpoint.description)
///     if case .changed(let pull) = try client.pull(.hot, session: &session, deadline: d) {
///       try server.apply(pull, session: session, at: now)
///     }
public struct ServerStore: Sendable {
  let database: StateDatabase

  public init(database: StateDatabase) {
    self.database = database
  }

  /// The deck row that holds the server's cards: its path is no file's (see `DeckSync`).
  static let deckPath = "server:"

  // MARK: - Session

  /// The session for `server`: the stored one, or a new one (keeping the install id) when
  /// none is stored or it was for another server. A stored session is read without taking the
  /// write lock: every pull starts here, and the writer's commits (a card waits for its history
  /// row) should not wait behind an empty write transaction and its fsync.
  public func session(for server: String) throws -> ServerSession {
    if let stored = try database.read({ db in try Self.stored(db) }), stored.server == server {
      return stored
    }
    return try database.write { db in
      let stored = try Self.stored(db)
      if let stored, stored.server == server { return stored }
      let fresh = ServerSession(
        server: server, installId: try Outbox.identity(db).installID)
      try Self.write(fresh, db)
      if stored != nil {
        try Self.forgetCards(db)
        // What the last server said of this user and its pulls is not the new one's.
        try db.run(
          "UPDATE server_session SET user_status = NULL, last_pull_at = NULL, "
            + "last_problem = NULL WHERE id = 1")
      }
      return fresh
    }
  }

  private static func stored(_ db: Connection) throws -> ServerSession? {
    try db.rows(
      "SELECT server, install_id, token, token_expires_at, distinct_id, clock_offset, "
        + "cache_key_hot, cache_key_recent FROM server_session WHERE id = 1"
    ) { row in
      var keys: [String: String] = [:]
      keys[PullFeed.hot.rawValue] = row.text(6)
      keys[PullFeed.recent.rawValue] = row.text(7)
      // An offset no auth accepts (an older version stored any): none, and no token, so that
      // the next request authenticates and measures it again.
      let offset = row.integer(5)
      let sane = ServerSession.isSane(offset: offset)
      return ServerSession(
        server: row.text(0) ?? "", installId: row.text(1) ?? "", token: sane ? row.text(2) : nil,
        tokenExpiresAt: row.isNull(3) ? nil : row.integer(3), distinctId: row.text(4),
        clockOffset: sane ? offset : 0, cacheKeys: keys)
    }.first
  }

  /// Stores the session (after an auth or a pull that changed nothing but the token).
  public func save(_ session: ServerSession) throws {
    try database.write { db in try Self.write(session, db) }
  }

  /// An upsert, not `INSERT OR REPLACE`: a replaced row would lose the columns not named here
  /// (the user's status, the last pull and its problem).
  private static func write(_ session: ServerSession, _ db: Connection) throws {
    try db.run(
      "INSERT INTO server_session (id, server, install_id, token, token_expires_at, "
        + "distinct_id, clock_offset, cache_key_hot, cache_key_recent) "
        + "VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        + "server = excluded.server, install_id = excluded.install_id, token = excluded.token, "
        + "token_expires_at = excluded.token_expires_at, distinct_id = excluded.distinct_id, "
        + "clock_offset = excluded.clock_offset, cache_key_hot = excluded.cache_key_hot, "
        + "cache_key_recent = excluded.cache_key_recent",
      [
        .text(session.server), .text(session.installId), .text(session.token),
        session.tokenExpiresAt.map { .integer($0) } ?? .null, .text(session.distinctId),
        .integer(session.clockOffset), .text(session.cacheKeys[PullFeed.hot.rawValue]),
        .text(session.cacheKeys[PullFeed.recent.rawValue]),
      ])
  }

  /// Makes the stored scores those of `feed` before it is pulled or dealt: `recent` scores
  /// every card by its time of publication, `hot` only the cards it ranks, so one feed's scores
  /// mixed with the other's would outrank them. The session holds a cache key for the feed
  /// pulled last only; when it holds another feed's, every server score is dropped with the
  /// keys, and the next pull, full, brings all of `feed`'s. A read when nothing switched.
  public func adopt(feed: PullFeed) throws {
    let other = PullFeed.allCases.filter { $0 != feed }.map(\.rawValue)
    func switched(_ db: Connection) throws -> Bool {
      guard let stored = try Self.stored(db) else { return false }
      return other.contains { stored.cacheKeys[$0] != nil }
    }
    guard try database.read(switched) else { return }
    try database.write { db in
      guard try switched(db) else { return }
      try db.run(
        "UPDATE server_session SET cache_key_hot = NULL, cache_key_recent = NULL WHERE id = 1")
      try db.run(
        "UPDATE cards SET score = NULL, scored_at = NULL, score_reason = NULL "
          + "WHERE +deck = (SELECT id FROM decks WHERE path = ?) AND score IS NOT NULL",
        [.text(Self.deckPath)])
      try db.run("DELETE FROM pending_scores")
    }
  }

  /// Notes how the last pull went: nil for a success, else its problem (for `ctfo status`).
  public func recordPull(at time: Int64, problem: String?) throws {
    try database.write { db in
      try db.run(
        "UPDATE server_session SET last_pull_at = ?, last_problem = ? WHERE id = 1",
        [.integer(time), .text(problem)])
    }
  }

  // MARK: - Pulls

  /// What applying a pull changed.
  public struct Applied: Sendable, Equatable {
    public var cards = 0
    public var removed = 0
    public var scores = 0
    /// Cards left out: a bad id or type name, an empty body.
    public var refused: [String] = []
    /// With `keepOrdinals`: the cards the pull added or changed (a body-less one with an empty
    /// body; a card sent again as it was stored is not listed), for the running feed.
    public var changed: [Card] = []
    /// With `keepOrdinals`: the cards the pull removed, with the place each had in the index.
    public var removedKeys: [String: CardKey] = [:]
  }

  /// How many cards one transaction of a pull upserts: the writer's commits (a card on screen
  /// waits for its history row) wait behind one chunk, not behind the whole pull (a 10,000-card
  /// pull in one transaction held the lock 45 ms). 50 a transaction was tried (2026-11-25): the
  /// longest COMMITs stayed (about 5 ms) and a pull of 10,000 cards took 1.5 times as long.
  static let applyChunk = 200

  /// Applies `pull`: its cards a chunk a transaction (a full pull first deletes, in chunks too,
  /// the server's cards it does not hold), then the removals, scores, user and `session` (which
  /// holds the new cache key) in a last one. A crash before the last leaves the old key with
  /// some of the pull applied; the next pull, from the old key, sends it again (a full pull
  /// again in full: the key it answered was unknown), and applying a pull twice is harmless.
  ///
  /// Every look-up of a card by id says `+deck`: SQLite would otherwise walk the server deck's
  /// index (`cards_by_deck`, every card of the server) for each card, which made a pull of
  /// 10,000 cards take 9 s; by id (`cards_by_id`) it is one probe.
  @discardableResult
  ///
  /// `keepOrdinals` is for the running app: no card of the index moves to another
  /// ordinal (removed cards leave holes, duplicate ids wait), so the feed built from the index
  /// at launch stays right, and `Applied` says what changed for it; `compactIfNeeded` closes
  /// the holes at the next launch.
  public func apply(
    _ pull: Wire.Pull, session: ServerSession, at time: Int64, keepOrdinals: Bool = false
  ) throws -> Applied {
    var applied = Applied(refused: pull.refused)
    let accepted = try accepted(pull, &applied)
    applied.cards = accepted.count
    var removedKeys: [String: CardKey] = [:]
    if pull.full {
      // A yield point a card: built in one go, the set of 10,000 ids and the filter held the
      // CPU 1.5 ms.
      var held = Set<String>(minimumCapacity: accepted.count)
      for card in accepted {
        held.insert(card.id)
        Courtesy.yieldPoint()
      }
      let stale = try storedIDs().filter {
        Courtesy.yieldPoint()
        return !held.contains($0)
      }
      for chunk in stale.chunks(of: Self.applyChunk) {
        try database.pause()
        let keys = try database.writeWithoutWaitingForTheDisk { db in
          let deck = try Self.serverDeck(db)
          return try Self.remove(Array(chunk), deck: deck, keeping: keepOrdinals, db).keys
        }
        removedKeys.merge(keys) { _, new in new }
      }
    }
    // Grown 200 cards at a time, the array was copied whole, up to 10,000 cards at once.
    if keepOrdinals { applied.changed.reserveCapacity(accepted.count) }
    for chunk in accepted.chunks(of: Self.applyChunk) {
      try database.pause()
      let (keys, changed) = try database.writeWithoutWaitingForTheDisk { db in
        let deck = try Self.serverDeck(db)
        var book = try OrdinalBook(db)
        var moved: [String: CardKey] = [:]
        var changed: [Card] = []
        for card in chunk {
          switch try Self.upsert(card, deck: deck, book: &book, db) {
          case .same: continue
          case .changed: break
          case .added(let leaving): if let leaving { moved[card.id] = leaving }
          }
          if keepOrdinals { changed.append(card.indexedCard) }
        }
        return (moved, changed)
      }
      if keepOrdinals {
        removedKeys.merge(keys) { _, new in new }
        applied.changed += changed
      }
    }
    try database.pause()
    var result = try database.write { db in
      let deck = try Self.serverDeck(db)
      try Self.mergeTypes(pull.types, full: pull.full, deck: deck, db)
      let (keys, count) = try Self.remove(pull.removed, deck: deck, keeping: keepOrdinals, db)
      removedKeys.merge(keys) { _, new in new }
      applied.removed += count
      for score in pull.scores where try Self.keep(score, db) { applied.scores += 1 }
      try Self.adoptPendingScores(db)
      if keepOrdinals {
        try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.spans(db))
      } else {
        var book = try OrdinalBook(db)
        _ = try book.settleDuplicates(db, reporting: [])
        try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
      }
      if let user = pull.user { try Self.replaceUser(user, db) }
      try Self.write(session, db)
      try db.run(
        "UPDATE server_session SET last_pull_at = ?, last_problem = NULL WHERE id = 1",
        [.integer(time)])
      return applied
    }
    if keepOrdinals { result.removedKeys = removedKeys }
    return result
  }

  /// Deletes the server's cards of `ids`; with `keeping`, reads first where each was.
  /// (`SQLiteError` is the statement's own typed error, rethrown as any error here.)
  private static func remove(
    _ ids: [String], deck: Int64, keeping: Bool, _ db: Connection
  ) throws -> (keys: [String: CardKey], count: Int) {
    var keys: [String: CardKey] = [:]
    var count = 0
    let find = try db.statement(
      "SELECT type, ordinal FROM cards WHERE +deck = ? AND id = ? AND ordinal IS NOT NULL")
    let remove = try db.statement("DELETE FROM cards WHERE +deck = ? AND id = ?")
    for id in ids {
      if keeping {
        let key = try find.rows([.integer(deck), .text(id)]) {
          CardKey(type: $0.text(0) ?? "", ordinal: Int($0.integer(1)))
        }.first
        keys[id] = key
      }
      try remove.run([.integer(deck), .text(id)])
      count += db.changes
    }
    return (keys, count)
  }

  /// Closes the holes pulls made while an app ran (`apply(keepOrdinals:)`): the ordinals of the
  /// server's types dense again, the catalog rewritten. Cheap when there are none: one indexed
  /// count per type of the server's cards.
  public func compactIfNeeded() throws {
    let holes = try database.read { db in
      try db.rows(
        """
        SELECT COUNT(*) FROM (SELECT type, COUNT(ordinal) AS n, MAX(ordinal) AS top FROM cards
        WHERE type IN (SELECT DISTINCT type FROM cards WHERE deck =
          (SELECT id FROM decks WHERE path = ?)) AND ordinal IS NOT NULL GROUP BY type)
        WHERE n != top + 1
        """, [.text(Self.deckPath)]
      ) { $0.integer(0) }.first ?? 0
    }
    guard holes > 0 else { return }
    try database.write { db in
      var book = try OrdinalBook(db)
      _ = try book.settleDuplicates(db, reporting: [])
      try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
    }
  }

  /// The pull's cards that go in: the deck rules, and at most `DeckParser.typesPerDeck` types
  /// on the server's deck (its stored types count unless the pull is full); the others are
  /// named in `applied.refused`.
  private func accepted(_ pull: Wire.Pull, _ applied: inout Applied) throws -> [Wire.Card] {
    var types: Set<String> =
      pull.full
      ? []
      : Set(
        try database.read { db in
          try db.rows(
            "SELECT DISTINCT type FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
            [.text(Self.deckPath)]
          ) { $0.text(0) ?? "" }
        })
    let limit = DeckParser.typesPerDeck
    var accepted: [Wire.Card] = []
    accepted.reserveCapacity(pull.cards.count)
    for card in pull.cards {
      Courtesy.yieldPoint()
      if let problem = Self.problem(of: card) {
        applied.refused.append("\(card.id.prefix(64)): \(problem)")
        continue
      }
      if !types.contains(card.type) {
        guard types.count < limit else {
          applied.refused.append(
            "\(card.id.prefix(64)): a type too many: the server's cards have at most \(limit) types")
          continue
        }
        types.insert(card.type)
      }
      accepted.append(card)
    }
    return accepted
  }

  /// The ids of the server's cards now stored.
  private func storedIDs() throws -> [String] {
    try database.read { db in
      try db.rows(
        "SELECT id FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
        [.text(Self.deckPath)]
      ) { $0.text(0) ?? "" }
    }
  }

  private static func serverDeck(_ db: Connection) throws -> Int64 {
    let found = try db.rows("SELECT id FROM decks WHERE path = ?", [.text(deckPath)]) {
      $0.integer(0)
    }
    if let id = found.first { return id }
    try db.run(
      "INSERT INTO decks (path, position, size, mtime, hash, name) "
        + "VALUES (?, 2147483647, 0, 0, '', 'server')", [.text(deckPath)])
    return db.lastInsertedRowID
  }

  /// The server's types in the deck row's `types`: replaced by a full pull, merged otherwise.
  private static func mergeTypes(
    _ types: [Wire.CardType], full: Bool, deck: Int64, _ db: Connection
  ) throws {
    guard full || !types.isEmpty else { return }
    let stored =
      try db.rows("SELECT types FROM decks WHERE id = ?", [.integer(deck)]) {
        $0.text(0) ?? "[]"
      }.first ?? "[]"
    var merged = full ? [] : try JSONDecoder().decode([CardType].self, from: Data(stored.utf8))
    for type in types where DeckName.problem(ofType: type.name) == nil {
      guard merged.contains(where: { $0.name == type.name })
        || merged.count < DeckParser.typesPerDeck
      else { continue }
      let colour = type.colour.flatMap { TerminalColour(rawValue: $0) == nil ? nil : $0 }
      let new = CardType(
        name: type.name, label: type.label, colour: colour, description: type.description)
      merged.removeAll { $0.name == type.name }
      merged.append(new)
    }
    let json = String(decoding: try JSONEncoder().encode(merged), as: UTF8.self)
    try db.run("UPDATE decks SET types = ? WHERE id = ?", [.text(json), .integer(deck)])
  }

  /// The deck rules for ids and type names, a body unless the pull left it out, and the size
  /// of a deck's card.
  private static func problem(of card: Wire.Card) -> String? {
    let checked = Card(id: card.id, type: card.type, body: card.needsBody ? "-" : card.body ?? "")
    if let problem = DeckName.problem(of: checked) { return problem }
    let size = [card.title, card.body, card.source, card.url, card.reveal].reduce(0) {
      $0 + ($1?.utf8.count ?? 0)
    }
    return size > cardLimit ? cardTooLong : nil
  }

  /// The most bytes of text a server's card may hold: a deck's card is a line of at most
  /// this many.
  public static let cardLimit = DeckFile.lineLimit

  /// Why a card over `cardLimit` is left out.
  public static let cardTooLong = "over \(cardLimit >> 20) MiB, the limit of a deck's card"

  /// What storing a pulled card did.
  private enum Upserted {
    /// The card was stored as it is.
    case same
    case changed
    /// New, or of a new type: `leaving` is where it was under its old type.
    case added(leaving: CardKey?)
  }

  /// Stores `card`.
  private static func upsert(
    _ card: Wire.Card, deck: Int64, book: inout OrdinalBook, _ db: Connection
  ) throws -> Upserted {
    let held = try db.rows(
      "SELECT seq, type, ordinal FROM cards WHERE +deck = ? AND id = ?",
      [.integer(deck), .text(card.id)]
    ) { row in (row.integer(0), row.text(1) ?? "", row.optionalInteger(2)) }.first
    let fields: [SQLiteValue] = [
      .text(card.title), .text(card.storedBody), .text(card.source),
      .text(card.url), .text(card.reveal), .integer(card.needsBody ? 1 : 0),
      card.publishedAt.map { .integer($0) } ?? .null,
    ]
    if let held, held.1 == card.type {
      try db.run(
        "UPDATE cards SET title = ?, body = ?, source = ?, url = ?, reveal = ?, "
          + "body_missing = ?, published_at = ? WHERE seq = ? AND (title IS NOT ? OR "
          + "body IS NOT ? OR source IS NOT ? OR url IS NOT ? OR reveal IS NOT ? OR "
          + "body_missing IS NOT ? OR published_at IS NOT ?)",
        fields + [.integer(held.0)] + fields)
      return db.changes > 0 ? .changed : .same
    }
    if let held { try db.run("DELETE FROM cards WHERE seq = ?", [.integer(held.0)]) }
    try db.run(
      "INSERT INTO cards (id, deck, line, type, ordinal, title, body, source, url, reveal, "
        + "body_missing, published_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        .text(card.id), .integer(deck), .text(card.type),
        .integer(book.allocate(card.type)),
      ] + fields)
    return .added(
      leaving: held.flatMap { held in held.2.map { CardKey(type: held.1, ordinal: Int($0)) } })
  }

  /// Stores the body of a card a pull sent without it.
  public func saveBody(id: String, body: String) throws {
    try database.write { db in
      try db.run(
        "UPDATE cards SET body = ?, body_missing = 0 WHERE id = ? AND body_missing = 1 "
          + "AND +deck = (SELECT id FROM decks WHERE path = ?)",
        [.text(body), .text(id), .text(Self.deckPath)])
    }
  }

  /// The body stored for a card a pull sent without it, once fetched; nil until then.
  public func storedBody(id: String) throws -> String? {
    try database.read { db in
      try db.rows(
        "SELECT body FROM cards WHERE id = ? AND +deck = (SELECT id FROM decks WHERE path = ?) "
          + "AND body_missing = 0 AND body != ''", [.text(id), .text(Self.deckPath)]
      ) { $0.text(0) }.first ?? nil
    }
  }

  /// The next card whose body a pull left out and no fetch brought yet, not in `skipping`: one
  /// never shown before one shown, the best score first.
  public func nextMissingBody(skipping: Set<String>) throws -> String? {
    try database.read { db in
      try db.rows(
        "SELECT id FROM cards WHERE +deck = (SELECT id FROM decks WHERE path = ?) "
          + "AND body_missing = 1 ORDER BY EXISTS (SELECT 1 FROM history WHERE "
          + "history.card_id = cards.id), score IS NULL, score DESC, seq",
        [.text(Self.deckPath)]
      ) { $0.text(0) ?? "" }.first { !skipping.contains($0) }
    }
  }

  /// The bytes of the server's card text stored: what the body precache's budget bounds.
  public func bodyBytes() throws -> Int {
    try database.read { db in
      Int(
        try db.rows(
          "SELECT COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) FROM cards "
            + "WHERE deck = (SELECT id FROM decks WHERE path = ?)", [.text(Self.deckPath)]
        ) { $0.integer(0) }.first ?? 0)
    }
  }

  // MARK: - Scores

  /// Keeps `score` when it is later than the one held (by `scoredAt`, then by value) and the
  /// card was never shown; a score for a card not yet here waits for it. True when kept.
  private static func keep(_ score: Wire.Score, _ db: Connection) throws -> Bool {
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
  private static func adoptPendingScores(_ db: Connection) throws {
    let pending = try db.rows("SELECT EXISTS (SELECT 1 FROM pending_scores)") { $0.integer(0) }
    guard pending.first == 1 else { return }
    try db.run(
      "UPDATE cards SET score = p.score, scored_at = p.scored_at, score_reason = p.reason "
        + "FROM pending_scores AS p "
        + "WHERE cards.id = p.card_id AND +cards.deck = (SELECT id FROM decks WHERE path = ?) "
        + "AND (cards.scored_at IS NULL OR (cards.scored_at, cards.score) < "
        + "(p.scored_at, p.score))", [.text(deckPath)])
    // Probing the cards for each pending score, not listing every server card (4 ms for a
    // 10,000-card pull, in the transaction a swipe's commit waits behind).
    try db.run(
      "DELETE FROM pending_scores WHERE EXISTS (SELECT 1 FROM cards WHERE cards.id = "
        + "pending_scores.card_id AND +cards.deck = (SELECT id FROM decks WHERE path = ?))",
      [.text(deckPath)])
  }

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

  // MARK: - User

  private static func replaceUser(_ user: Wire.User, _ db: Connection) throws {
    try db.run("UPDATE server_session SET user_status = ? WHERE id = 1", [.text(user.status)])
    let dismissed = Set(
      try db.rows("SELECT id FROM server_notifications WHERE dismissed = 1") { $0.text(0) ?? "" })
    try db.run("DELETE FROM server_notifications")
    for note in user.notifications.prefix(100) {
      try db.run(
        "INSERT OR REPLACE INTO server_notifications (id, text, created_at, expires_at, dismissed) "
          + "VALUES (?, ?, ?, ?, ?)",
        [
          .text(note.id), .text(String(note.text.prefix(1000))),
          note.createdAt.map { .integer($0) } ?? .null,
          note.expiresAt.map { .integer($0) } ?? .null,
          .integer(dismissed.contains(note.id) ? 1 : 0),
        ])
    }
  }

  /// The notifications not dismissed and not expired at `time` (server milliseconds), newest
  /// first: their ids and texts. When the app dismisses the first, the next shows.
  public func notices(at time: Int64) throws -> [(id: String, text: String)] {
    try database.read { db in
      try db.rows(
        "SELECT id, text FROM server_notifications WHERE dismissed = 0 "
          + "AND (expires_at IS NULL OR expires_at > ?) "
          + "ORDER BY created_at DESC, id DESC", [.integer(time)]
      ) { (id: $0.text(0) ?? "", text: $0.text(1) ?? "") }
    }
  }

  /// Marks a notification read: it does not show again, even when a pull sends it again.
  public func dismiss(id: String) throws {
    try database.write { db in
      try db.run("UPDATE server_notifications SET dismissed = 1 WHERE id = ?", [.text(id)])
    }
  }

  /// Drops every server card and score (the server changed).
  private static func forgetCards(_ db: Connection) throws {
    try db.run(
      "DELETE FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)", [.text(deckPath)])
    try db.run("DELETE FROM decks WHERE path = ?", [.text(deckPath)])
    try db.run("DELETE FROM pending_scores")
    try db.run("DELETE FROM server_notifications")
    try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
  }

  // MARK: - Status

  /// What `ctfo status` shows.
  public struct Status: Sendable, Equatable {
    public var server: String?
    public var lastPullAt: Int64?
    public var lastProblem: String?
    public var userStatus: String?
    /// The install's id, which the server's operator names to set its user status.
    public var installId: String?
    public var cards = 0
    public var notifications: [String] = []
  }

  /// The status when this machine's clock reads `now` (milliseconds): the notifications that
  /// have not expired by then on the server's clock.
  public func status(at now: Int64) throws -> Status {
    try database.read { db in
      var status = Status()
      let rows = try db.rows(
        "SELECT server, last_pull_at, last_problem, user_status, install_id FROM server_session "
          + "WHERE id = 1"
      ) { row in
        (row.text(0), row.isNull(1) ? nil : row.integer(1), row.text(2), row.text(3), row.text(4))
      }
      if let row = rows.first {
        (status.server, status.lastPullAt, status.lastProblem, status.userStatus) =
          (row.0, row.1, row.2, row.3)
        status.installId = row.4
      }
      let offset = try db.rows("SELECT clock_offset FROM server_session WHERE id = 1") {
        $0.integer(0)
      }.first
      let serverNow = ServerSession.serverTime(at: now, offset: offset ?? 0)
      status.cards = Int(
        try db.rows(
          "SELECT COUNT(*) FROM cards WHERE deck = (SELECT id FROM decks WHERE path = ?)",
          [.text(Self.deckPath)]
        ) { $0.integer(0) }.first ?? 0)
      status.notifications = try db.rows(
        "SELECT text FROM server_notifications WHERE dismissed = 0 "
          + "AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id",
        [.integer(serverNow)]
      ) { $0.text(0) ?? "" }
      return status
    }
  }
}

extension Array {
  /// The array cut into slices of at most `size` elements, in order.
  fileprivate func chunks(of size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}

extension Wire.Card {
  /// The body as the index keeps it: empty for a card sent without it (fetched when shown).
  var storedBody: String { needsBody ? "" : body ?? "" }

  /// The card as the index keeps it.
  var indexedCard: Card {
    Card(
      id: id, type: type, title: title, body: storedBody, source: source, url: url,
      reveal: reveal)
  }
}
