import CardPreparation
import CardText
import FeedCore

/// Everything that can happen to the app: keys, terminal events, and the results of effects.
public enum AppAction: Sendable, Hashable {
  case key(Key)
  /// The mouse: a drag of the feed's card, a click on it or on a list, the wheel.
  case mouse(MouseEvent)
  /// The terminal is now `width` x `height` cells.
  case resized(width: Int, height: Int)
  /// The feed signalled news (a card became ready).
  case wake
  /// Saving state failed (the reason, shown until a save succeeds), or works again (nil).
  case saveProblem(String?)
  /// The next frame of the slide-out is due.
  case frame
  /// A frame showing the state as it is is on screen: keys typed ahead for its card act now.
  case drawn
  /// SIGTERM, SIGHUP or SIGINT.
  case terminate
  /// The result of `.takeNext`: the item, and the history index it got if it is a card.
  case dealt(FeedItem, position: Int)
  /// The result of `.undo`: the card back on screen, or nil when there was nothing to undo.
  case undone(ShownCard?)
  /// The result of `.undo` when the swipe's card is gone from its source: why it stays gone.
  case undoRefused(String)
  /// Live sources changed cards: the card on screen redraws from its new data,
  /// new types get their labels, and a source's news shows in the status line.
  case liveChanged(LiveUpdate)
  /// The result of `.loadTypes`.
  case typesLoaded([TypeStatus])
  /// The result of `.loadHistory`: the newest entries (those `search` found and `filter`
  /// kept), and how many cards the history holds.
  case historyLoaded(
    [HistoryEntry], total: Int, search: String? = nil, filter: ReactionFilter = .all)
  /// The result of `.loadStats`.
  case statsLoaded(ReadingStats)
  /// The result of `.openCard`: nil when the card can no longer be found.
  case cardOpened(PreparedCard?)
  /// The result of `.bringBack`: the card's title (or id), nil when it can no longer be found.
  case broughtBack(String?)
  /// The result of `.loadSettings`.
  case settingsLoaded([TypeStatus], problems: [String])
  /// The result of `.setEnabled`.
  case settingChanged(SettingOutcome)
  /// The result of `.openURL`: nil when the browser ran, else what went wrong.
  case urlOpened(failure: String?)
  /// A pull from the server ended: whether it reached the server, and the notification to show.
  case serverChanged(ServerLine)
}

/// What live sources changed, as the screen needs it.
public struct LiveUpdate: Sendable, Hashable {
  /// Changed cards, laid out again: the one on screen is replaced (same id).
  public var updated: [PreparedCard]
  /// Every type's status now (new types and their labels).
  public var statuses: [TypeStatus]
  /// For the status line: a source ended or failed, a deck's bad line.
  public var message: String?

  public init(updated: [PreparedCard] = [], statuses: [TypeStatus] = [], message: String? = nil) {
    self.updated = updated
    self.statuses = statuses
    self.message = message
  }
}

/// What came of enabling or disabling a type.
public enum SettingOutcome: Sendable, Hashable {
  /// Done: every type's status now.
  case applied([TypeStatus])
  /// Not done, with the reason (e.g. it was the last enabled type).
  case refused(String)
  /// Needs a yes first (e.g. it would clear the undo history); ask this question.
  case needsConfirmation(String)
}

/// Work the run loop performs for the reducer; each reports back with an `AppAction`.
public enum AppEffect: Sendable, Hashable {
  /// Take the next card from the feed; answer `.dealt`.
  case takeNext
  /// Record a swipe of the card (history, undo window, events).
  case swipe(PreparedCard, SwipeDirection)
  /// Undo the last swipe; answer `.undone`.
  case undo
  /// Answer `.typesLoaded`.
  case loadTypes
  /// Answer `.historyLoaded` with at most `limit` entries: those whose title or text holds
  /// `search`, when given, and whose reaction `filter` keeps.
  case loadHistory(limit: Int, search: String? = nil, filter: ReactionFilter = .all)
  /// Answer `.statsLoaded` with the reader's stats.
  case loadStats
  /// Answer `.cardOpened` with the card behind a history entry.
  case openCard(id: String)
  /// Undo every swipe back to the one of history row `historyIndex`, newest first, as that
  /// many `undo`s; answer `.undoRefused` when that swipe is not in the undo window.
  case undoTo(historyIndex: Int)
  /// Deal the card `id` next, after the card on screen; answer `.broughtBack`.
  case bringBack(id: String)
  /// Answer `.settingsLoaded`.
  case loadSettings
  /// Enable or disable a type; answer `.settingChanged`. `confirmed` is true after a yes.
  case setEnabled(type: String, enabled: Bool, confirmed: Bool)
  /// Tell the feed the body text area changed: it lays ready cards out again.
  case resizeTextArea(TextArea)
  /// Open an http or https link (checked with `WebLink.isOpenable`) in the user's browser;
  /// answer `.urlOpened`.
  case openURL(String)
  /// Put `text` (sanitised, at most `ClipboardText.maxBytes`) on the terminal's clipboard with
  /// OSC 52.
  case copy(String)
  /// Pull from the server now (in the background; its end comes as `.serverChanged`).
  case pull
  /// The notification was read: it does not show again.
  case dismissNotice(id: String)
  /// Save state, restore the terminal and exit.
  case quit
}

extension AppEffect {
  /// Whether performing it gives an action back (a card dealt, a list loaded) — or ends the
  /// app: keys typed ahead wait for that; after any other effect they are handled at once.
  public var reportsBack: Bool {
    switch self {
    case .swipe, .resizeTextArea, .pull, .dismissNotice: false
    default: true
    }
  }
}
