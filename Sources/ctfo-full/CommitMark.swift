import Synchronization

/// The highest sequence number the state writer has committed, shared between the writer's
/// thread and the UI thread.
final class CommitMark: Sendable {
  private let value = Atomic<UInt64>(0)

  /// Called by the writer after each commit (in order).
  func advance(to sequence: UInt64) { value.store(sequence, ordering: .releasing) }

  /// True once the change with this sequence number has committed.
  func covers(_ sequence: UInt64) -> Bool { value.load(ordering: .acquiring) >= sequence }
}
