import CardStore
import CardText
import FeedCore
import FeedPipeline
import Foundation
import Screens

/// `AppServices` on the real feed, undo window and state database.
///
/// Writes go to the ordered background `StateWriter`; the UI thread never waits for the disk.
/// One rule keeps a SIGKILL from losing anything drawn: a card taken from the feed is held back
/// (the app sees `.loading`, hidden behind the slide-out) until the transaction holding its
/// history row, and the reaction of the swipe that led to it, has committed; the commit writes
/// the wake-up pipe and the next `takeNext` hands the card over.
final class LiveServices: AppServices {
  private let launch: Launch
  private let feed: Feed
  private let writer: StateWriter
  private let committed: CommitMark
  private let problems: [String]
  private var window: UndoWindow
  private var nextIndex: Int
  private var area: TextArea
  /// The card on screen, once handed over.
  private var current: ShownCard?
  /// A card taken from the feed whose history row is being written.
  private var pending: (card: ShownCard, sequence: UInt64)?
  /// Cards an undo pushed back: shown again, newest first, before any new card.
  private var returned: [ShownCard] = []
  /// The undo effects of the last swipe, written with the next card's history row.
  private var swipeEffects: [UndoEffect] = []
  /// Changes given to the writer once the frame is drawn, so that its transaction does not
  /// compete with drawing the frame for the machine's cores.
  private var outgoing: [(change: StateChange, sequence: UInt64)] = []
  private var lastSequence: UInt64 = 0

  init(
    launch: Launch, feed: Feed, writer: StateWriter, committed: CommitMark,
    window: UndoWindow, problems: [String], area: TextArea
  ) throws {
    self.launch = launch
    self.feed = feed
    self.writer = writer
    self.committed = committed
    self.window = window
    self.problems = problems
    self.area = area
    nextIndex = try launch.state.nextHistoryIndex()
  }

  private var now: Double { Date().timeIntervalSince1970 }

  func takeNext() -> (item: FeedItem, position: Int) {
    if let pending {
      guard committed.covers(pending.sequence) else { return (.loading, 0) }
      self.pending = nil
      return hand(pending.card)
    }
    if let card = returned.popLast() {
      flushSwipe()
      return hand(card)
    }
    let item = feed.takeNext()
    guard case .card(let card) = item else {
      flushSwipe()
      return (item, 0)
    }
    let entry = HistoryEntry(
      index: nextIndex, cardID: card.card.id, type: card.card.type, title: card.card.title,
      shownAt: now)
    nextIndex += 1
    let sequence = enqueue(StateChange(effects: swipeEffects, shown: [entry], time: now))
    swipeEffects = []
    pending = (ShownCard(prepared: card, position: entry.index), sequence)
    return takeNext()
  }

  func swipe(_ card: PreparedCard, _ direction: SwipeDirection) {
    guard let current, current.prepared.card.id == card.card.id else { return }
    let tombstone = Tombstone(
      historyIndex: current.position, cardID: card.card.id, type: card.card.type,
      direction: direction)
    swipeEffects += window.swipe(tombstone)
    self.current = nil
  }

  func undo() -> ShownCard? {
    let effects = window.undo()
    guard case .restore(let tombstone) = effects.first else { return nil }
    flushSwipe()
    enqueue(StateChange(effects: effects, time: now))
    if let pending {
      returned.append(pending.card)
      self.pending = nil
    }
    if let current { returned.append(current) }
    let restored = prepared(id: tombstone.cardID).map {
      ShownCard(prepared: $0, position: tombstone.historyIndex)
    }
    current = restored
    return restored
  }

  func history(limit: Int) -> [HistoryEntry] {
    frameDrawn()
    writer.waitUntilIdle()
    return (try? launch.state.history(limit: limit)) ?? []
  }

  func card(id: String) -> PreparedCard? { prepared(id: id) }

  func typeStatuses() -> [TypeStatus] { feed.statuses }

  func deckProblems() -> [String] { problems }

  func setEnabled(_ type: String, _ enabled: Bool, confirmed: Bool) -> SettingOutcome {
    let statuses = feed.statuses
    var types = Set(statuses.filter(\.enabled).map(\.type.name))
    if enabled { types.insert(type) } else { types.remove(type) }
    guard !types.isEmpty else { return .refused("At least one type must stay enabled.") }
    if enabled, !statuses.contains(where: { $0.type.name == type && $0.enabled }) {
      let effects =
        confirmed
        ? window.answerReplacement(true) : window.replaceCollection(enabledTypes: types)
      for effect in effects {
        switch effect {
        case .refuseReplacement(let reason): return .refused(reason)
        case .askUser(let question): return .needsConfirmation(question)
        default: continue
        }
      }
      flushSwipe()
      enqueue(StateChange(effects: effects, enabled: [type: true], time: now))
      returned = []
    } else {
      enqueue(StateChange(enabled: [type: enabled], time: now))
      returned.removeAll { !types.contains($0.prepared.card.type) }
    }
    feed.setEnabled(types)
    return .applied(feed.statuses)
  }

  func resize(textArea width: Int, _ height: Int) {
    area = TextArea(width: width, height: height)
    feed.resize(to: area)
  }

  func frameDrawn() {
    for (change, sequence) in outgoing {
      let given = writer.enqueue(change)
      assert(given == sequence, "the writer numbers changes in the order they are given")
    }
    outgoing.removeAll(keepingCapacity: true)
  }

  func close() {
    flushSwipe()
    frameDrawn()
    feed.stop()
    writer.waitUntilIdle()
  }

  /// Queues a change for the writer; returns the sequence number it will commit under.
  @discardableResult
  private func enqueue(_ change: StateChange) -> UInt64 {
    lastSequence += 1
    outgoing.append((change, lastSequence))
    return lastSequence
  }

  private func hand(_ card: ShownCard) -> (item: FeedItem, position: Int) {
    current = card
    return (.card(card.prepared), card.position)
  }

  /// Writes the last swipe's effects on their own when no new card comes with them.
  private func flushSwipe() {
    guard !swipeEffects.isEmpty else { return }
    enqueue(StateChange(effects: swipeEffects, time: now))
    swipeEffects = []
  }

  /// A card from the index, sanitised and laid out for the current text area.
  private func prepared(id: String) -> PreparedCard? {
    guard let card = try? launch.index.card(id: id) else { return nil }
    return Preparation.laidOut(Preparation.sanitized(card), for: area)
  }
}
