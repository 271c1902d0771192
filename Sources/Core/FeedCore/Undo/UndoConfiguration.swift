/// How the undo window behaves: its size, what a collection replacement does to it, and what
/// happens at launch to the tombstones the last run left.
///
/// ```swift
/// let config = UndoConfiguration(limit: 5, onReplace: .askUser, onLaunch: .restore)
/// ```
public struct UndoConfiguration: Sendable, Hashable {
  /// The default number of undoable swipes (`undo-limit`).
  public static let defaultLimit = 5

  /// The most tombstones kept; passing it evicts the oldest. Zero disables undo.
  public var limit: Int
  /// What a collection replacement (a type re-enabled) does with the tombstones (`on-replace`).
  public var onReplace: ReplacementStrategy
  /// What launch does with the tombstones of the last run (`on-launch`).
  public var onLaunch: RestoreMode

  public init(
    limit: Int = UndoConfiguration.defaultLimit, onReplace: ReplacementStrategy = .clearTombstones,
    onLaunch: RestoreMode = .restore
  ) {
    self.limit = max(0, limit)
    self.onReplace = onReplace
    self.onLaunch = onLaunch
  }
}

/// What happens to the undo window when the feed throws its queues away (`on-replace`).
///
/// The raw values are the config file's spellings.
public enum ReplacementStrategy: String, Sendable, Hashable, CaseIterable {
  /// Commit every tombstone and go ahead (the default).
  case clearTombstones = "clear-tombstones"
  /// Keep the tombstones whose type is still enabled; commit the others.
  case preserveValidTombstones = "preserve-valid-tombstones"
  /// Refuse the replacement while any tombstone is left, saying why.
  case blockIfTombstones = "block-if-tombstones"
  /// Ask the user whether to clear the undo window first.
  case askUser = "ask-user"
}

/// What launch does with the tombstones the last run left (`on-launch`).
///
/// The raw values are the config file's spellings.
public enum RestoreMode: String, Sendable, Hashable, CaseIterable {
  /// Keep them: undo works across a restart (the default).
  case restore
  /// Commit them at launch: their reactions become final.
  case clearGracefully = "clear-gracefully"
  /// Drop them without committing: the reactions stay in history, no event is sent.
  case ignore
}
