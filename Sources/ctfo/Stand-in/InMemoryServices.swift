import CardText
import FeedCore
import FeedPipeline
import Screens

/// `AppServices` on the stub feed with history and undo kept in memory: a stand-in for running
/// the interactive app before the real feed and store are merged.
final class InMemoryServices: AppServices {
  private let feed: Feed
  private let catalog: [TypeCount]
  private var enabled: Set<String>
  private var entries: [HistoryEntry] = []
  private var cards: [String: PreparedCard] = [:]
  private var shown: ShownCard?
  private var undoable: [ShownCard] = []

  init(feed: Feed, catalog: [TypeCount]) {
    self.feed = feed
    self.catalog = catalog
    enabled = Set(catalog.map(\.type.name))
  }

  func takeNext() -> (item: FeedItem, position: Int) {
    while true {
      let item = feed.takeNext()
      guard case .card(let card) = item else { return (item, 0) }
      guard enabled.contains(card.card.type) else { continue }
      entries.append(
        HistoryEntry(
          index: entries.count, cardID: card.card.id, type: card.card.type,
          title: card.card.title, shownAt: 0))
      cards[card.card.id] = card
      shown = ShownCard(prepared: card, position: entries.count - 1)
      return (item, entries.count - 1)
    }
  }

  func swipe(_ card: PreparedCard, _ direction: SwipeDirection) {
    guard let shown, shown.prepared.card.id == card.card.id else { return }
    entries[shown.position].reaction = direction.reaction
    undoable = Array((undoable + [shown]).suffix(5))
  }

  func undo() -> ShownCard? {
    guard let last = undoable.popLast() else { return nil }
    entries[last.position].reaction = nil
    shown = last
    return last
  }

  func history(limit: Int) -> [HistoryEntry] { Array(entries.suffix(limit)) }

  func card(id: String) -> PreparedCard? { cards[id] }

  func typeStatuses() -> [TypeStatus] {
    catalog.map {
      TypeStatus(
        type: $0.type, cards: $0.cards, enabled: enabled.contains($0.type.name), failing: false)
    }
  }

  func deckProblems() -> [String] { [] }

  func setEnabled(_ type: String, _ on: Bool, confirmed: Bool) -> SettingOutcome {
    if !on, enabled == [type] { return .refused("At least one type must stay enabled") }
    if on, !confirmed, !undoable.isEmpty {
      return .needsConfirmation("Turning it back on restarts the feed and clears undo. Go on?")
    }
    if on {
      enabled.insert(type)
      undoable = []
    } else {
      enabled.remove(type)
    }
    feed.setEnabled(enabled)
    return .applied(typeStatuses())
  }

  func resize(textArea width: Int, _ height: Int) { feed.resize(width: width, height: height) }

  func close() { feed.stop() }
}
