import CardPreparation
import FeedCore

/// The history view: the cards shown, newest first, all of them or those a search found.
public struct HistoryBrowser: Sendable, Hashable {
  /// The longest search: a prompt takes no more characters, `ctfo history --search` refuses more.
  public static let maxSearchLength = 200

  /// The newest entries, at most `AppState.historyLimit` of them.
  public var entries: [HistoryEntry]
  /// How many cards the history holds (more than `entries` when it is longer than the limit).
  public var total: Int
  public var viewport: ListViewport
  /// The text the entries were found by (`/`, then Enter); nil when they are the whole history.
  public var search: String?
  /// The search being typed in the hint bar, while its prompt is open.
  public var prompt: String?
  /// The reaction the entries were chosen by (`Tab` cycles it).
  public var filter: ReactionFilter

  /// Orders `entries` newest first whatever order they came in; `total` defaults to their
  /// number.
  public init(
    entries: [HistoryEntry], total: Int? = nil, search: String? = nil,
    filter: ReactionFilter = .all, viewport: ListViewport = ListViewport()
  ) {
    self.entries = entries.sorted { $0.index > $1.index }
    self.total = total ?? entries.count
    self.search = search
    self.filter = filter
    self.viewport = viewport
  }
}

/// Which cards the history view lists by their reaction: all, one reaction's, or those shown
/// and not swiped. `Tab` goes round them in this order.
public enum ReactionFilter: Sendable, Hashable, CaseIterable {
  case all, ctfo, tfu, tifb, none

  /// The next one round.
  public var next: ReactionFilter {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }

  /// The reaction kept: nil keeps every entry, `.some(nil)` only those with none.
  public var reaction: Reaction?? {
    switch self {
    case .all: nil
    case .ctfo: .some(.ctfo)
    case .tfu: .some(.tfu)
    case .tifb: .some(.tifb)
    case .none: .some(nil)
    }
  }

  /// How the heading and the hint bar name it.
  public var label: String {
    switch self {
    case .all: "all"
    case .ctfo: Reaction.ctfo.rawValue
    case .tfu: Reaction.tfu.rawValue
    case .tifb: Reaction.tifb.rawValue
    case .none: "no reaction"
    }
  }
}

/// The settings screen: every type with its state, and the decks' problems.
public struct SettingsPanel: Sendable, Hashable {
  public var statuses: [TypeStatus]
  /// Problems found in the decks (bad lines, unknown types), untrusted text.
  public var problems: [String]
  public var viewport: ListViewport

  public init(statuses: [TypeStatus], problems: [String], viewport: ListViewport = ListViewport()) {
    self.statuses = statuses
    self.problems = problems
    self.viewport = viewport
  }
}

/// The whole text of one card, scrolled.
public struct FullCardView: Sendable, Hashable {
  public var card: PreparedCard
  /// The first line on screen.
  public var scroll: Int
  /// Where `Esc` returns to: the feed or the history view.
  public var origin: AppMode

  public init(card: PreparedCard, scroll: Int = 0, origin: AppMode) {
    self.card = card
    self.scroll = scroll
    self.origin = origin
  }
}

/// A yes/no question, and what a yes does.
public struct Confirmation: Sendable, Hashable {
  public var question: String
  public var onYes: AppEffect
  /// The screen under the dialog, and where either answer returns to.
  public var origin: AppMode

  public init(question: String, onYes: AppEffect, origin: AppMode) {
    self.question = question
    self.onYes = onYes
    self.origin = origin
  }
}

/// The stats screen: the reader's stats (`ReadingStats`) and the first of their rows on screen.
public struct StatsView: Sendable, Hashable {
  public var stats: ReadingStats
  public var scroll: Int

  public init(stats: ReadingStats, scroll: Int = 0) {
    self.stats = stats
    self.scroll = scroll
  }
}
