import Dispatch
import FeedCore
import Synchronization

/// Writes state changes in the background, in order, so the UI thread never waits for the
/// disk.
///
/// `enqueue` returns at once with the change's sequence number (1, 2, ...); after the
/// change commits, `onCommitted` is called with it and the history indices its shown cards
/// got, on the writer's thread. The app gives it a swipe's change once the frame showing the
/// next card is drawn, and writes its wake-up pipe on the commit, which tells it the row's
/// number (DECISIONS.md, "A swipe never waits for its commit").
///
/// A change that fails (disk full, the lock held by another process past the busy timeout)
/// is not lost: it stays first in the queue, `onFailed` is called once, and the writer
/// writes nothing more, so no later change commits before it, until the owner calls
/// `retry()`. `waitUntilIdle()` tells which changes are still queued.
///
/// ```swift
/// let writer = StateWriter(store: state, onCommitted: { seq, indices in wake.signal(seq) })
/// let seq = writer.enqueue(StateChange(effects: window.swipe(t), shown: [next], time: now))
/// ```
public final class StateWriter: Sendable {
  private struct Pending {
    var lastSequence: UInt64 = 0
    var changes: [(sequence: UInt64, change: StateChange)] = []
    /// Set by a failure, cleared by `retry()`.
    var halted = false
    /// The number each recent change's first history row got, by provisional number
    /// (`-sequence`): a card shown while the disk refused writes is known by that number
    /// until its row is written (`Session`).
    var numbers: [Int: Int] = [:]
    var numbered: [Int] = []
  }

  /// How many changes' row numbers are kept for the changes after them.
  static let numbersKept = 4096

  private let store: StateStore
  private let queue = DispatchQueue(label: "ctfo.state-writer")
  private let pending = Mutex(Pending())
  private let onCommitted: @Sendable (UInt64, [Int]) -> Void
  private let onFailed: @Sendable (UInt64, any Error) -> Void

  /// - Parameters:
  ///   - onCommitted: called on the writer's thread after each commit, in order, with the
  ///     change's sequence number and the history indices of its shown cards.
  ///   - onFailed: called when a change could not be written; it stays queued (`retry()`).
  public init(
    store: StateStore, onCommitted: @escaping @Sendable (UInt64, [Int]) -> Void = { _, _ in },
    onFailed: @escaping @Sendable (UInt64, any Error) -> Void = { _, _ in }
  ) {
    self.store = store
    self.onCommitted = onCommitted
    self.onFailed = onFailed
  }

  /// Queues `change` and returns its sequence number without waiting.
  @discardableResult
  public func enqueue(_ change: StateChange) -> UInt64 {
    let sequence = pending.withLock { pending in
      pending.lastSequence += 1
      pending.changes.append((pending.lastSequence, change))
      return pending.lastSequence
    }
    queue.async { [self] in drain() }
    return sequence
  }

  /// Writes again, after a failure, the change that failed and every change queued after it.
  public func retry() {
    pending.withLock { $0.halted = false }
    queue.async { [self] in drain() }
  }

  /// Blocks until every queued change is written or a failure stopped the writer (at quit).
  ///
  /// - Returns: the sequence numbers still queued (empty when everything committed).
  @discardableResult
  public func waitUntilIdle() -> [UInt64] {
    queue.sync {}
    return pending.withLock { $0.changes.map(\.sequence) }
  }

  /// Writes the queued changes in order until none is left or one fails.
  private func drain() {
    while let (sequence, queued) = pending.withLock({ $0.halted ? nil : $0.changes.first }) {
      var change = queued
      if change.isProvisional {
        let numbers = pending.withLock { $0.numbers }
        change = change.resolvingProvisional { numbers[$0] }
      }
      do {
        let indices = try store.apply(change)
        pending.withLock { pending in
          _ = pending.changes.removeFirst()
          guard let first = indices.first else { return }
          pending.numbers[-Int(sequence)] = first
          pending.numbered.append(-Int(sequence))
          if pending.numbered.count > Self.numbersKept {
            pending.numbers[pending.numbered.removeFirst()] = nil
          }
        }
        onCommitted(sequence, indices)
      } catch {
        pending.withLock { $0.halted = true }
        onFailed(sequence, error)
        return
      }
    }
  }
}
