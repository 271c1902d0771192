import Dispatch
import Synchronization

/// Writes state changes in the background, in order, so the UI thread never waits for the
/// disk.
///
/// `enqueue` returns at once with the change's sequence number (1, 2, ...); after the
/// change commits, `onCommitted` is called with it on the writer's thread. The app writes
/// its wake-up pipe there and draws the next card only once that card's history row is
/// committed, so a SIGKILL never loses a card that was on screen.
///
/// ```swift
/// let writer = StateWriter(store: state, onCommitted: { seq in wake.signal(seq) })
/// let seq = writer.enqueue(StateChange(effects: window.swipe(t), shown: [next], time: now))
/// ```
public final class StateWriter: Sendable {
  private let store: StateStore
  private let queue = DispatchQueue(label: "ctfo.state-writer")
  private let lastSequence = Mutex<UInt64>(0)
  private let onCommitted: @Sendable (UInt64) -> Void
  private let onFailed: @Sendable (UInt64, any Error) -> Void

  /// - Parameters:
  ///   - onCommitted: called on the writer's thread after each commit, in order.
  ///   - onFailed: called instead when a change could not be written (disk full, ...).
  public init(
    store: StateStore, onCommitted: @escaping @Sendable (UInt64) -> Void = { _ in },
    onFailed: @escaping @Sendable (UInt64, any Error) -> Void = { _, _ in }
  ) {
    self.store = store
    self.onCommitted = onCommitted
    self.onFailed = onFailed
  }

  /// Queues `change` and returns its sequence number without waiting.
  @discardableResult
  public func enqueue(_ change: StateChange) -> UInt64 {
    lastSequence.withLock { last in
      last += 1
      let sequence = last
      // Dispatched under the lock, so the queue receives the changes in sequence order.
      queue.async { [self] in write(change, sequence) }
      return sequence
    }
  }

  /// Blocks until every queued change is written (at quit).
  public func waitUntilIdle() {
    queue.sync {}
  }

  private func write(_ change: StateChange, _ sequence: UInt64) {
    do {
      try store.apply(change)
      onCommitted(sequence)
    } catch {
      onFailed(sequence, error)
    }
  }
}
