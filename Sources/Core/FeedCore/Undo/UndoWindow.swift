/// The undo window: the swiped cards that can still come back, oldest first.
///
/// A pure state machine. Every change returns the effects the app and the state database
/// perform; the window itself does no I/O.
///
/// ```swift
/// var window = UndoWindow(configuration: UndoConfiguration(limit: 2))
/// window.swipe(a)  // [.entomb(a)]
/// window.swipe(b)  // [.entomb(b)]
/// window.swipe(c)  // [.entomb(c), .commit(a)]
/// window.undo()    // [.restore(c)]
/// ```
public struct UndoWindow: Sendable, Hashable {
  public private(set) var tombstones: [Tombstone]
  public let configuration: UndoConfiguration
  /// Whether an `.askUser` question waits for `answerReplacement(_:)`.
  public private(set) var awaitingAnswer = false

  public init(configuration: UndoConfiguration, tombstones: [Tombstone] = []) {
    self.configuration = configuration
    self.tombstones = tombstones
  }

  /// The window at launch, from the tombstones the last run persisted, per `onLaunch`.
  ///
  /// Restoring also evicts what a lowered limit no longer holds, so no eviction is skipped.
  public static func launch(
    persisted: [Tombstone], configuration: UndoConfiguration
  ) -> (window: UndoWindow, effects: [UndoEffect]) {
    var window = UndoWindow(configuration: configuration)
    switch configuration.onLaunch {
    case .restore:
      window.tombstones = persisted
      let evicted = window.evictOverflow()
      return (window, evicted)
    case .clearGracefully:
      return (window, persisted.map(UndoEffect.commit))
    case .ignore:
      return (window, persisted.map(UndoEffect.discard))
    }
  }

  /// Records a swipe; evicts (commits) the oldest tombstones past the limit.
  public mutating func swipe(_ tombstone: Tombstone) -> [UndoEffect] {
    tombstones.append(tombstone)
    return [.entomb(tombstone)] + evictOverflow()
  }

  /// The history row numbered provisionally `provisional` (a card shown while its row could
  /// not be written) got the number `index`.
  public mutating func resolve(_ provisional: Int, to index: Int) {
    for i in tombstones.indices where tombstones[i].historyIndex == provisional {
      tombstones[i].historyIndex = index
    }
  }

  /// Takes back the newest swipe, or does nothing when the window is empty.
  public mutating func undo() -> [UndoEffect] {
    guard let newest = tombstones.popLast() else { return [] }
    return [.restore(newest)]
  }

  /// The newest swipe's card is gone from its live source: the swipe cannot be taken back,
  /// so it is final now (committed: its reaction reported) instead of restored.
  public mutating func dropNewest() -> [UndoEffect] {
    guard let newest = tombstones.popLast() else { return [] }
    return [.commit(newest)]
  }

  /// A live source replaced its whole collection. A source cannot be refused or
  /// kept waiting for an answer: `clear-tombstones` makes every swipe final; the other
  /// strategies keep the swipes whose cards the source still has (`stillThere`), as
  /// `preserve-valid-tombstones` does, so nothing undoable is lost and no undo brings back a
  /// card that is gone.
  public mutating func sourceReplaced(stillThere: (Tombstone) -> Bool) -> [UndoEffect] {
    switch configuration.onReplace {
    case .clearTombstones: commitAll()
    case .preserveValidTombstones, .blockIfTombstones, .askUser: commit { !stillThere($0) }
    }
  }

  /// The feed is about to throw its queues away; `enabledTypes` are the types enabled after.
  public mutating func replaceCollection(enabledTypes: Set<String>) -> [UndoEffect] {
    guard !tombstones.isEmpty else { return [.replace] }
    switch configuration.onReplace {
    case .clearTombstones:
      return commitAll() + [.replace]
    case .preserveValidTombstones:
      return commit { !enabledTypes.contains($0.type) } + [.replace]
    case .blockIfTombstones:
      return [.refuseReplacement(blockedMessage)]
    case .askUser:
      awaitingAnswer = true
      return [.askUser(question)]
    }
  }

  /// The user's answer to an `.askUser` question: yes clears the window and replaces.
  public mutating func answerReplacement(_ confirmed: Bool) -> [UndoEffect] {
    guard awaitingAnswer else { return [] }
    awaitingAnswer = false
    guard confirmed else { return [.refuseReplacement("Settings unchanged: undo history kept.")] }
    return commitAll() + [.replace]
  }

  private var swipeCount: String {
    tombstones.count == 1 ? "1 swipe" : "\(tombstones.count) swipes"
  }

  private var blockedMessage: String {
    "Cannot change the types while \(swipeCount) can be undone (on-replace = block-if-tombstones)."
  }

  private var question: String {
    "Changing the types clears the undo history (\(swipeCount)). Continue? (y/n)"
  }

  private mutating func evictOverflow() -> [UndoEffect] {
    let overflow = max(0, tombstones.count - configuration.limit)
    let evicted = tombstones.prefix(overflow)
    tombstones.removeFirst(overflow)
    return evicted.map(UndoEffect.commit)
  }

  private mutating func commitAll() -> [UndoEffect] { commit { _ in true } }

  private mutating func commit(where leaves: (Tombstone) -> Bool) -> [UndoEffect] {
    let leaving = tombstones.filter(leaves)
    tombstones.removeAll(where: leaves)
    return leaving.map(UndoEffect.commit)
  }
}
