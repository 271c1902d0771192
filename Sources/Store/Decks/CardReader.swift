import FeedCore

/// Reads one card by (type, ordinal): the query every preparation runs.
///
/// `CardReader(path:)` holds a read-only connection of its own, so a feed's preparations
/// never queue behind the app's other reads; `DeckIndex.reader()` reads on the database's
/// connections (and inside its transaction). Either way one prepared statement per
/// connection, behind the connection's mutex.
public final class CardReader: Sendable {
  static let columns = "id, type, title, body, source, url, reveal"
  private static let query = "SELECT \(columns) FROM cards WHERE type = ? AND ordinal = ?"

  private enum Connections {
    case own(Lane)
    case database(StateDatabase)
  }

  private let connections: Connections

  /// Opens `path` read-only.
  public init(path: String) throws {
    do {
      let connection = try Connection(path: path, role: .readOnly)
      _ = try connection.statement(Self.query)
      connections = .own(Lane(connection) { try Connection(path: path, role: .readOnly) })
    } catch {
      throw CardReaderError(message: "\(error)")
    }
  }

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
      case .own(let lane): return try lane.run(read)
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
      source: row.text(4), url: row.text(5), reveal: row.text(6))
  }
}

/// SQLite refused to open the database or to answer the card query.
public struct CardReaderError: Error, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { "cannot read cards: \(message)" }
}
