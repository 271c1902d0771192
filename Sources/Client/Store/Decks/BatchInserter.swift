import Dispatch
import Synchronization

/// Inserts batches of cards on a background queue, one transaction per batch, while the
/// caller parses the next batch: on two cores parsing and SQLite overlap.
///
/// At most two batches wait at a time, so memory stays bounded whatever the deck's size.
final class BatchInserter: Sendable {
  private let database: StateDatabase
  private let deck: Int64
  private let queue = DispatchQueue(label: "ctfo.deck-import")
  private let slots = DispatchSemaphore(value: 2)
  private let failure = Mutex<(any Error)?>(nil)

  init(database: StateDatabase, deck: Int64) {
    self.database = database
    self.deck = deck
  }

  /// Queues `batch`; blocks only while two batches already wait. Throws an earlier failure.
  func enqueue(_ batch: [IndexedCard]) throws {
    try rethrowFailure()
    guard !batch.isEmpty else { return }
    slots.wait()
    queue.async { [self] in
      defer { slots.signal() }
      guard failure.withLock({ $0 == nil }) else { return }
      do {
        try insert(batch)
      } catch {
        failure.withLock { $0 = error }
      }
    }
  }

  /// Waits for every queued batch; throws the first failure.
  func finish() throws {
    queue.sync {}
    try rethrowFailure()
  }

  private func rethrowFailure() throws {
    if let error = failure.withLock({ $0 }) { throw error }
  }

  private func insert(_ batch: [IndexedCard]) throws {
    try database.write { db in
      let statement = try db.statement(
        """
        INSERT INTO cards (id, deck, line, type, ordinal, title, body, source, url, reveal)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for item in batch {
        let card = item.card
        try statement.run([
          .text(card.id), .integer(deck), .integer(item.line), .text(card.type),
          .integer(item.ordinal), .text(card.title), .text(card.body), .text(card.source),
          .text(card.url), .text(card.reveal),
        ])
      }
    }
  }
}
