import FeedCore
import SQL

/// `hook_queue`: the reactions made final that the reaction hook has not been given yet,
/// oldest first. A change queues them in its own transaction (`StateStore.hooks`), and each
/// leaves once the hook has it, so those still waiting at a quit run after the next launch.
///
///     let queue = HookQueue(database: database)
///     while let next = try queue.oldest() { give(next); try queue.remove(next.sequence) }
public struct HookQueue: Sendable {
  let database: StateDatabase

  public init(database: StateDatabase) { self.database = database }

  /// One reaction waiting for the hook, with the title history has for its card.
  public struct Entry: Sendable, Equatable {
    public var sequence: Int64
    public var cardID: String
    public var type: String
    public var title: String?
    public var reaction: Reaction
    /// When it became final, in seconds since 1970.
    public var time: Double
  }

  /// The reactions `change` makes final: those committed, and those dropped from the undo
  /// window without an event (`on-launch = "ignore"`), which history keeps all the same.
  static func enqueue(_ change: StateChange, _ db: Connection) throws {
    for effect in change.effects {
      switch effect {
      case .commit(let t), .discard(let t):
        try db.run(
          """
          INSERT INTO hook_queue (history_idx, card_id, type, reaction, time)
          VALUES (?, ?, ?, ?, ?)
          """,
          [
            .integer(t.historyIndex), .text(t.cardID), .text(t.type),
            .text(t.direction.reaction.rawValue), .real(change.time),
          ])
      default: break
      }
    }
  }

  /// The oldest reaction waiting, nil when none is.
  public func oldest() throws -> Entry? {
    try database.read { db in
      try db.rows(
        """
        SELECT q.seq, q.card_id, q.type, h.title, q.reaction, q.time FROM hook_queue q
        LEFT JOIN history h ON h.idx = q.history_idx ORDER BY q.seq LIMIT 1
        """
      ) {
        Entry(
          sequence: $0.integer(0), cardID: $0.text(1) ?? "", type: $0.text(2) ?? "",
          title: $0.text(3), reaction: Reaction(rawValue: $0.text(4) ?? "") ?? .tfu,
          time: $0.real(5))
      }.first
    }
  }

  /// Takes the reaction numbered `sequence` off the queue: the hook has it.
  public func remove(_ sequence: Int64) throws {
    try database.write { db in
      try db.run("DELETE FROM hook_queue WHERE seq = ?", [.integer(sequence)])
    }
  }

  /// How many reactions wait.
  public func count() throws -> Int {
    try database.read { db in
      Int(try db.rows("SELECT COUNT(*) FROM hook_queue") { $0.integer(0) }.first ?? 0)
    }
  }
}
