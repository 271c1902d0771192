import FeedCore
import SQL
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads one card by (type, ordinal): the query every preparation runs.
///
/// `CardReader(path:)` holds read-only connections of its own, one per core, taken in turn,
/// so a feed's concurrent preparations neither queue behind the app's other reads nor behind
/// each other (with one connection, a large `ctfo next` spent a share of its time waiting on it);
/// `DeckIndex.reader()` reads on the database's connections (and inside its transaction).
/// Either way one prepared statement per connection, behind the connection's mutex.
public final class CardReader: Sendable {
  static let columns = """
    id, type, title, body, source, url, reveal,
    CASE WHEN score_reason IS NOT NULL THEN printf('scored %.2f: %s', score, score_reason) END
    """
  private static let query = "SELECT \(columns) FROM cards WHERE type = ? AND ordinal = ?"

  private enum Connections {
    case own([Lane])
    case database(StateDatabase)
  }

  private let connections: Connections
  /// Which of its own connections the next read takes.
  private let turn = Atomic<Int>(0)

  /// Opens `path` read-only, with `lanes` connections (one per core by default; the first is
  /// opened at once, so that a bad path fails here, the others on first use).
  ///
  /// `snapshot` keeps each connection in one read transaction until the reader goes: a batch
  /// (`ctfo next -n 30000`) then takes SQLite's shared locks once per connection instead of
  /// once per card. Only for a reader that lives as long as a command: a long read
  /// transaction keeps the WAL from being checkpointed.
  public init(path: String, lanes: Int = CardReader.cores, snapshot: Bool = false) throws {
    do {
      let open = { @Sendable in
        let connection = try Connection(path: path, role: .readOnly)
        if snapshot { try connection.execute("BEGIN") }
        return connection
      }
      let connection = try open()
      _ = try connection.statement(Self.query)
      connections = .own(
        [Lane(connection, open: open)] + (1..<max(lanes, 1)).map { _ in Lane(nil, open: open) })
    } catch {
      throw CardReaderError(message: "\(error)")
    }
  }

  /// The cores online, as the cooperative pool sizes itself.
  public static var cores: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

  init(database: StateDatabase) {
    connections = .database(database)
  }

  /// The card of `type` at `ordinal`, or nil past the end.
  public func card(type: String, ordinal: Int) throws -> Card? {
    let read = { (db: Connection) throws -> Card? in
      try db.rows(Self.query, [.text(type), .integer(ordinal)], Self.card).first
    }
    do {
      switch connections {
      case .own(let lanes):
        let next = turn.wrappingAdd(1, ordering: .relaxed).oldValue
        return try lanes[next % lanes.count].run(read)
      case .database(let database): return try database.read(read)
      }
    } catch {
      throw CardReaderError(message: "\(error)")
    }
  }

  /// The card in a row of `columns`.
  static func card(_ row: Statement) -> Card {
    Card(
      id: row.text(0) ?? "", type: row.text(1) ?? "", title: row.text(2), body: row.text(3) ?? "",
      source: row.text(4), url: row.text(5), reveal: row.text(6), why: row.text(7))
  }
}

/// SQLite refused to open the database or to answer the card query.
public struct CardReaderError: Error, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { "cannot read cards: \(message)" }
}
