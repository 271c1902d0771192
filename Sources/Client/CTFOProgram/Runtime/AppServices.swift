import App
import CardPreparation
import CardText
import FeedCore
import FeedPipeline

/// What the interactive app needs from the feed and the store.
///
/// Every call is synchronous and fast, made on the UI thread: the feed never blocks, and
/// database writes are queued to a background writer.
protocol AppServices {
  /// Collects the state writer's news; returns the problem saving state, if there is one.
  func refresh() -> String?
  /// The next card and the history index it was recorded at (ignored unless `.card`).
  /// Showing a card records it in the history and starts the preparation of one more.
  func takeNext() -> (item: FeedItem, position: Int)
  /// Records a swipe of the card on screen: history reaction, undo tombstone, events.
  func swipe(_ card: PreparedCard, _ direction: SwipeDirection)
  /// Undoes the last swipe inside the undo window and returns that card to the screen; the card
  /// that was on screen goes back to the front of the ready queue. A card its source removed
  /// does not come back: the user is told.
  func undo() -> Session.UndoOutcome
  /// What live sources changed since the last call, applied to the session; nil
  /// when nothing.
  func liveNews() -> LiveUpdate?
  /// The last `limit` history entries, or with `search` the last `limit` whose title or text
  /// holds it.
  func history(limit: Int, matching search: String?) -> [HistoryEntry]
  /// How many cards the history holds.
  func historyCount() -> Int
  /// A card from the history, prepared again (sanitised; its layout is not used).
  func card(id: String) -> PreparedCard?
  /// Every type with its count, enabled and failing state.
  func typeStatuses() -> [TypeStatus]
  /// The problems found while loading the decks, one line each.
  func deckProblems() -> [String]
  /// Enables or disables a type, saved and applied to the feed at once. May refuse (the last
  /// enabled type) or ask for a yes first; `confirmed` is true after that yes.
  func setEnabled(_ type: String, _ enabled: Bool, confirmed: Bool) -> SettingOutcome
  /// Settings another process changed since the last call (`ctfo enable`/`disable`), applied
  /// to the feed: every type's status then, or nil when nothing changed.
  func settingsChangedElsewhere() -> [TypeStatus]?
  /// The body text area is now `area`: ready cards are laid out again.
  func resize(textArea area: TextArea)
  /// A frame is on screen: the moment to start the work it did not need (database writes).
  func frameDrawn()
  /// The server's mark and notification, when a pull ended since the last call.
  func serverLine() -> ServerLine?
  /// Pulls from the server now, in the background (nothing without a server).
  func pullNow()
  /// The notification was read.
  func dismissNotice(id: String)
  /// Saves state and stops the feed.
  func close()
}
