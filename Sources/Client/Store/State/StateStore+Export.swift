import FeedCore
import SQL

/// Which history rows `ctfo history` lists: by reaction and by the time a card was shown.
public struct HistoryFilter: Sendable, Equatable {
  /// Only the rows with this reaction; `.some(nil)` only the rows with none.
  public var reaction: Reaction??
  /// Only the rows shown at or after this time (seconds since 1970).
  public var since: Double?
  /// Only the rows shown before this time.
  public var before: Double?

  public init(reaction: Reaction?? = nil, since: Double? = nil, before: Double? = nil) {
    self.reaction = reaction
    self.since = since
    self.before = before
  }

  /// True when it keeps every row.
  public var keepsAll: Bool { reaction == nil && since == nil && before == nil }
}

/// What the decks hold now of a card the history names: its text, source and link.
public struct CardDetails: Sendable, Equatable {
  public var body: String
  public var source: String?
  public var url: String?

  public init(body: String, source: String? = nil, url: String? = nil) {
    self.body = body
    self.source = source
    self.url = url
  }
}

extension StateStore {
  /// The newest `limit` listed entries that `filter` keeps and, with `text`, whose title or
  /// card body holds it among the newest `searchDepth` rows (as `history(limit:matching:)`),
  /// newest first.
  public func history(
    limit: Int, filter: HistoryFilter, matching text: String? = nil
  ) throws -> [HistoryEntry] {
    try database.read { db in
      var conditions = [Self.listed]
      var values: [SQLiteValue] = []
      if let text {
        let newest = try db.rows("SELECT COALESCE(MAX(idx), 0) FROM history") { $0.integer(0) }
        conditions.append("idx >= ?")
        values.append(.integer(Int(newest.first ?? 0) - Self.searchDepth + 1))
        conditions.append(
          """
          (title LIKE ? ESCAPE '\\' OR EXISTS (
            SELECT 1 FROM cards WHERE cards.id = history.card_id AND cards.ordinal IS NOT NULL
              AND cards.body LIKE ? ESCAPE '\\'))
          """)
        values += [.text(Self.likePattern(text)), .text(Self.likePattern(text))]
      }
      switch filter.reaction {
      case .some(.some(let reaction)):
        conditions.append("reaction = ?")
        values.append(.text(reaction.rawValue))
      case .some(.none): conditions.append("reaction IS NULL")
      case .none: break
      }
      if let since = filter.since {
        conditions.append("shown_at >= ?")
        values.append(.real(since))
      }
      if let before = filter.before {
        conditions.append("shown_at < ?")
        values.append(.real(before))
      }
      return try db.rows(
        """
        SELECT \(Self.historyColumns) FROM history
        WHERE \(conditions.joined(separator: " AND ")) ORDER BY idx DESC LIMIT ?
        """, values + [.integer(limit)], Self.historyEntry)
    }
  }

  /// The text, source and link of each card of `ids` that a deck holds now (a card no deck
  /// holds any more has none).
  public func cardDetails(ids: some Sequence<String>) throws -> [String: CardDetails] {
    try database.read { db in
      var details: [String: CardDetails] = [:]
      for id in Set(ids) {
        let found = try db.rows(
          "SELECT body, source, url FROM cards WHERE id = ? AND ordinal IS NOT NULL LIMIT 1",
          [.text(id)]
        ) { CardDetails(body: $0.text(0) ?? "", source: $0.text(1), url: $0.text(2)) }
        details[id] = found.first
      }
      return details
    }
  }
}
