import FeedCore
import Synchronization

/// The fetch stage of the preparation pipeline: an actor holding the fetches under way by
/// card. A card dealt again while its fetch runs (a type smaller than the lookahead) shares
/// that fetch instead of asking its source twice, so a card whose fetch fails was asked for
/// once (feed-logic.md: never retry). The fetches themselves run concurrently, each a task of
/// its own: the actor only keeps the table, and is free while they wait.
actor FetchStage {
  /// One fetch and the slots waiting for it.
  final class Shared: Sendable {
    let task: Task<Card, any Error>
    /// How many slots wait for it: read outside the actor, when a slot is cancelled.
    let users = Atomic<Int>(0)

    init(_ task: Task<Card, any Error>) { self.task = task }
  }

  private struct Entry {
    var shared: Shared
    /// The type's renewal it was started in (see `card(_:renewal:)`).
    var renewal: Int
    /// It failed: it stays, so that a slot that dealt the card before the failure and
    /// prepares it after gets the same failure instead of asking the source again.
    var failed = false
  }

  private let source: any CardSource
  private var fetches: [CardKey: Entry] = [:]

  init(source: any CardSource) { self.source = source }

  /// The card at `key`, from the fetch under way or a new one. `renewal` counts the new
  /// rounds of the card's type started after every card of it failed (`Feed
  /// .renewFailedTypes`): a failure from before the last one is asked again, once.
  /// A cancelled slot cancels the fetch only when no other slot waits for it.
  func card(_ key: CardKey, renewal: Int) async throws -> Card {
    try Task.checkCancellation()
    let shared: Shared
    if let entry = fetches[key], !(entry.failed && entry.renewal < renewal) {
      shared = entry.shared
    } else {
      let source = self.source
      shared = Shared(Task { try await source.fetch(type: key.type, ordinal: key.ordinal) })
      fetches[key] = Entry(shared: shared, renewal: renewal)
    }
    shared.users.add(1, ordering: .relaxed)
    defer { leave(key, shared) }
    do {
      return try await withTaskCancellationHandler {
        try await shared.task.value
      } onCancel: {
        if shared.users.load(ordering: .relaxed) == 1 { shared.task.cancel() }
      }
    } catch {
      if !(error is CancellationError), fetches[key]?.shared === shared {
        fetches[key]?.failed = true
      }
      throw error
    }
  }

  /// A slot stops waiting: a fetch that succeeded (or was cancelled) leaves the table with
  /// its last slot; a failed one stays.
  private func leave(_ key: CardKey, _ shared: Shared) {
    let left = shared.users.subtract(1, ordering: .relaxed).newValue
    guard left == 0, let entry = fetches[key], entry.shared === shared, !entry.failed else {
      return
    }
    fetches[key] = nil
  }
}
