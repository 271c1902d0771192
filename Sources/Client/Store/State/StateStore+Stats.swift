import FeedCore
import SQL

extension StateStore {
  /// What the history says of its reader (`ReadingStats`): days are counted in the time zone
  /// `utcOffset` seconds east of UTC, today being the day of `now`.
  public func readingStats(now: Double, utcOffset: Int) throws -> ReadingStats {
    try database.read { db in
      let offset = SQLiteValue.integer(utcOffset)
      let byDay = try db.rows(
        """
        SELECT CAST((shown_at + ?) / 86400 AS INTEGER), count(*) FROM history
        WHERE reaction IS NOT NULL GROUP BY 1
        """, [offset]
      ) { (Int($0.integer(0)), Int($0.integer(1))) }
      var lines: [String: ReadingStats.TypeLine] = [:]
      let types = try db.rows("SELECT name, label, cards FROM card_types") {
        ($0.text(0) ?? "", $0.text(1), $0.integer(2))
      }
      for (name, label, cards) in types {
        lines[name] = ReadingStats.TypeLine(type: name, label: label, cards: Int(cards))
      }
      let counts = try db.rows(
        "SELECT type, reaction, count(*) FROM history WHERE \(Self.listed) GROUP BY 1, 2"
      ) { ($0.text(0) ?? "", $0.text(1).flatMap(Reaction.init), Int($0.integer(2))) }
      for (type, reaction, count) in counts {
        var line = lines[type] ?? ReadingStats.TypeLine(type: type)
        switch reaction {
        case .ctfo: line.ctfo += count
        case .tfu: line.tfu += count
        case .tifb: line.tifb += count
        case nil: line.unswiped += count
        }
        lines[type] = line
      }
      // Cards shown this round that the decks still hold, as a launch resumes them.
      for (type, seen) in try Self.roundProgress(db).seen {
        lines[type]?.seenThisRound = seen.count
      }
      let today = Int(((now + Double(utcOffset)) / 86_400).rounded(.down))
      return ReadingStats(
        swipesByDay: Dictionary(byDay) { a, b in a + b }, today: today, types: Array(lines.values))
    }
  }
}
