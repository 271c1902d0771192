/// What a change of the undo window asks the app and the state database to do.
public enum UndoEffect: Sendable, Hashable {
  /// A swipe entered the window: record its reaction and store its tombstone.
  case entomb(Tombstone)
  /// The tombstone left the window for good: its reaction is final (a reaction event).
  case commit(Tombstone)
  /// The tombstone was dropped without committing (`on-launch = ignore`): the reaction stays
  /// in history, no event is sent.
  case discard(Tombstone)
  /// The swipe was undone: withdraw its reaction and put the card back on top.
  case restore(Tombstone)
  /// The collection replacement may go ahead: the feed throws its queues away.
  case replace
  /// The collection replacement is refused; the message says why.
  case refuseReplacement(String)
  /// Ask the user this yes/no question, then call `UndoWindow.answerReplacement(_:)`.
  case askUser(String)
}
