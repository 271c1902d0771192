import App
import CardPreparation
import CardText
import FeedCore
import FeedPipeline

/// What the interactive app's machine (`AppMachine`) asks of the feed, the store and the
/// server: each call performs one effect and returns what it found, deciding nothing.
///
/// Every call is synchronous and fast, made on the UI thread: the feed never blocks, and
/// database writes are queued to a background writer.
protocol AppServices {
  /// The state writer's reports since the last call, in order.
  func takeReports() -> [WriterReport]
  /// A card from the feed (`.loading` while none is ready); starts the preparation of one more.
  func takeFromFeed() -> FeedItem
  /// A card by id, laid out for the screen; nil when its source removed it.
  func undoCard(id: String) -> PreparedCard?
  /// Gives a change to the state writer.
  func write(_ write: Session.Write)
  /// Tells the writer, which holds what failed, to try again in a while.
  func retryWrites()
  /// Runs the reaction hook on a reaction stored for good.
  func runHook(cardID: String, reaction: Reaction, time: Double)
  /// Events were committed: the analytics sinks may send them.
  func deliverAnalytics()
  /// What live sources changed since the last call, the changed cards `holds` accepts laid
  /// out; with the ids of `undoable` still in a source when one replaced its collection. Nil
  /// when nothing changed.
  func liveNews(holds: (String) -> Bool, undoable: [String]) -> LiveChanges?
  /// The last `limit` history entries, or with `search` the last `limit` whose title or text
  /// holds it, once every change given so far is written.
  func history(limit: Int, matching search: String?, reaction: Reaction??) -> [HistoryEntry]
  /// How many cards the history holds.
  func historyCount() -> Int
  /// The reader's stats, once every write so far is in; empty when they cannot be read.
  func readingStats() -> ReadingStats
  /// A card from the history, prepared again (sanitised; its layout is not used).
  func card(id: String) -> PreparedCard?
  /// Every type with its count, enabled and failing state.
  func typeStatuses() -> [TypeStatus]
  /// The problems found while loading the decks, one line each.
  func deckProblems() -> [String]
  /// The types the feed deals now.
  func enabledTypes() -> Set<String>
  /// The feed deals `types` from now on; every type's status then.
  func enable(_ types: Set<String>) -> [TypeStatus]
  /// The types the state database holds disabled, nil when it cannot be read.
  func disabledTypes() -> Set<String>?
  /// When the state database changed since the last call: the types it holds disabled, every
  /// known type, and the types the feed deals now; nil when it did not.
  func storedSettings() -> (disabled: Set<String>, types: Set<String>, enabledNow: Set<String>)?
  /// The body text area is now `area`: ready cards are laid out again.
  func resize(textArea area: TextArea)
  /// The server's line when a pull ended since the last call, and the count of analytics
  /// events waiting for a failing sink when it changed; nil when neither.
  func serverNews() -> (pulled: ServerLine?, queuedEvents: Int?)?
  /// Pulls from the server now, in the background (nothing without a server).
  func pullNow()
  /// The notification was read.
  func dismissNotice(id: String)
  /// Quitting: the server link stops.
  func stopLink()
  /// Quitting, once the last changes are given: the feed stops, and the writer writes what
  /// it holds, trying what fails again a few times; the sequences not saved.
  func finishWrites() -> [UInt64]
  /// Quitting, once the last reports are in: hooks and analytics get a moment to finish;
  /// `unsaved` changes are reported with `saveProblem`.
  func finish(unsaved: [UInt64], saveProblem: String?)
}
