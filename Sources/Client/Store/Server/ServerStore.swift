import CTFOWire
import FeedCore
import SQL

/// What the state database holds of the CTFO server: the client's session (`SessionTable`),
/// the server's cards (`ServerCardTable`, a deck of their own in the card index), scores
/// (`ScoreTable`), the user's status (`UserTable`) and notifications (`NotificationTable`).
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

  // MARK: - Pulls

  /// What applying a pull changed.
  public struct Applied: Sendable, Equatable {
    public var cards = 0
    public var removed = 0
    public var scores = 0
    /// What was left out: cards with a bad id or type name or an empty body, and the pull's
    /// elements that are none (`Wire.Pull.refused`).
    public var refused: [String] = []
    /// With `keepOrdinals`: the cards the pull added or changed (a body-less one with an empty
    /// body; a card sent again as it was stored is not listed), for the running feed.
    public var changed: [Card] = []
    /// With `keepOrdinals`: the cards the pull removed, with the place each had in the index.
    public var removedKeys: [String: CardKey] = [:]
  }

  /// How many cards one transaction of a pull upserts: the writer's commits (a card on screen
  /// waits for its history row) wait behind one chunk, not behind the whole pull. Smaller
  /// chunks kept the longest commits as they were and made a large pull slower
  /// (DECISIONS.md, "A pull is applied and decoded in pieces").
  static let applyChunk = 200

  /// Applies `pull`: its cards a chunk a transaction (a full pull first deletes, in chunks too,
  /// the server's cards it does not hold), then the removals, scores, user and `session` (which
  /// holds the new cache key) in a last one. A crash before the last leaves the old key with
  /// some of the pull applied; the next pull, from the old key, sends it again (a full pull
  /// again in full: the key it answered was unknown), and applying a pull twice is harmless.
  ///
  /// `keepOrdinals` is for the running app: no card of the index moves to another
  /// ordinal (removed cards leave holes, duplicate ids wait), so the feed built from the index
  /// at launch stays right, and `Applied` says what changed for it; `compactIfNeeded` closes
  /// the holes at the next launch.
  @discardableResult
  public func apply(
    _ pull: Wire.Pull, session: ServerSession, at time: Int64, keepOrdinals: Bool = false
  ) throws -> Applied {
    var applied = Applied(refused: pull.refused)
    let accepted = try accepted(pull, &applied)
    applied.cards = accepted.count
    var removedKeys =
      pull.full ? try removeStale(keeping: accepted, keepOrdinals: keepOrdinals) : [:]
    let upserted = try upsert(accepted, keepOrdinals: keepOrdinals)
    if keepOrdinals {
      removedKeys.merge(upserted.moved) { _, new in new }
      applied.changed = upserted.changed
    }
    try database.pause()
    var result = try database.write { db in
      let deck = try ServerCardTable.deck(db)
      try ServerCardTable.mergeTypes(pull.types, full: pull.full, deck: deck, db)
      let (keys, count) = try ServerCardTable.remove(
        pull.removed, deck: deck, keeping: keepOrdinals, db)
      removedKeys.merge(keys) { _, new in new }
      applied.removed += count
      for score in pull.scores where try ScoreTable.keep(score, db) { applied.scores += 1 }
      try ScoreTable.adoptPending(db)
      if keepOrdinals {
        try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.spans(db))
      } else {
        var book = try OrdinalBook(db)
        _ = try book.settleDuplicates(db, reporting: [])
        try OrdinalBook.writeCatalog(db, counts: try OrdinalBook.compact(db))
      }
      if let user = pull.user { try UserTable.replace(user, db) }
      try SessionTable.write(session, db)
      try SessionTable.pulled(at: time, db)
      return applied
    }
    if keepOrdinals { result.removedKeys = removedKeys }
    return result
  }

  /// Drops every server card, score and notification (the server changed).
  static func forgetServer(_ db: Connection) throws {
    try ServerCardTable.forgetAll(db)
    try ScoreTable.forgetPending(db)
    try NotificationTable.forgetAll(db)
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
      var status = try SessionTable.status(db)
      let offset = try SessionTable.clockOffset(db)
      let serverNow = ServerSession.serverTime(at: now, offset: offset ?? 0)
      status.cards = try ServerCardTable.count(db)
      status.notifications = try NotificationTable.texts(at: serverNow, db)
      return status
    }
  }
}
