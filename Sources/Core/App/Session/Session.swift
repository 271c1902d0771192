import CardPreparation
import FeedCore

/// The app's side of the feed and the store, as a value: which card is on screen, which cards
/// an undo pushed back, the swipe effects held for the next write, and the writes not yet
/// handed to the writer.
///
/// Pure: the feed is a closure, time is passed in, and writes come out as numbered
/// `Session.Write`s that `AppMachine` hands to the store's writer once the frame is drawn. The
/// writer's reports come back through `committed` and `failed`.
///
/// A card taken from the feed is shown at once, in the frame that answers the key; its
/// history row (with the reaction of the swipe that led to it) is written after that frame.
/// The store numbers the row, one past the newest; until it commits, the card is known here
/// by a provisional number (`-sequence`, which the writer resolves in later changes) and
/// shown under the number its row is expected to get, corrected by the commit when another
/// process wrote rows meanwhile.
///
///     var session = Session(window: window, nextIndex: 41)
///     var item = session.next(now: t) { feed.takeNext() }  // .card(...), shown as 41
///     for write in session.takeWrites() { writer.enqueue(write.change) }
///     session.committed(1, indices: [41])                  // its row is in, numbered 41
public struct Session: Sendable {
  /// A change for the writer and the sequence number it commits under (1, 2, ...).
  public struct Write: Sendable, Hashable {
    public var change: StateChange
    public var sequence: UInt64

    public init(change: StateChange, sequence: UInt64) {
      self.change = change
      self.sequence = sequence
    }
  }

  public private(set) var window: UndoWindow
  /// The card on screen, once handed over.
  public private(set) var current: ShownCard?
  /// Why the last write failed, until a write succeeds; the writer keeps the change and tries
  /// it again, so nothing is lost, and the user is told meanwhile.
  public private(set) var saveProblem: String?
  /// The number the store is expected to give the next history row: one past the newest.
  private var nextIndex: Int
  /// The numbers the rows not yet committed are expected to get, by provisional number.
  private var expected: [Int: Int] = [:]
  /// Cards an undo pushed back: shown again, newest first, before any new card.
  private var returned: [ShownCard] = []
  /// The undo effects of the last swipe, written with the next card's history row.
  private var held: [UndoEffect] = []
  /// The analytics events of the last swipe (its card's focus), written with its effects.
  private var heldEvents: [AnalyticsEvent] = []
  private var outgoing: [Write] = []
  private var lastSequence: UInt64 = 0

  /// A session over `window`; `returning` are the cards the last run left to come back
  /// (`StateStore.returning()`, those still in the decks), first to return first. Given, they
  /// are stored again as found, so cards that left the decks leave the queue too.
  /// `nextIndex` is the number the store gives its next history row (`StateStore.nextIndex()`).
  public init(window: UndoWindow, returning: [ShownCard]? = nil, nextIndex: Int = 0) {
    self.window = window
    self.nextIndex = nextIndex
    guard let returning else { return }
    self.returned = returning.reversed()
    enqueue(StateChange(returning: queue(onScreen: nil), time: 0))
  }

  /// The next card to show and the number to show it under (0 unless `.card`): a card an
  /// undo pushed back, else one from `feed`, shown at once; its row is written after.
  public mutating func next(
    now: Double, feed: () -> FeedItem
  ) -> (item: FeedItem, position: Int) {
    if let card = returned.popLast() {
      enqueue(
        StateChange(
          effects: held, returning: queue(onScreen: nil), events: heldEvents, time: now))
      held = []
      heldEvents = []
      return hand(card)
    }
    let item = feed()
    guard case .card(let card) = item else {
      flushHeld(now: now)
      return (item, 0)
    }
    let shown = ShownRecord(card.card, shownAt: now)
    let sequence = enqueue(
      StateChange(effects: held, shown: [shown], events: heldEvents, time: now))
    held = []
    heldEvents = []
    expected[-Int(sequence)] = nextIndex
    nextIndex += 1
    return hand(ShownCard(prepared: card, position: -Int(sequence)))
  }

  /// Whether `next` has a card of its own to give without the feed: one an undo pushed back.
  public var dealsWithoutFeed: Bool { !returned.isEmpty }

  /// The number to show for a card at history position `position`: its row's number, or
  /// while its row is being written the number it is expected to get; while writes fail, the
  /// provisional number (negative: the footer says the card is unsaved).
  public func number(_ position: Int) -> Int {
    guard position < 0, saveProblem == nil else { return position }
    return expected[position] ?? position
  }

  /// The card on screen was swiped: its tombstone enters the undo window, and the effects (and
  /// `events`, its focus) are held to be written with the next card's history row.
  public mutating func swipe(
    _ card: PreparedCard, _ direction: SwipeDirection, events: [AnalyticsEvent] = []
  ) {
    guard let current, current.prepared.card.id == card.card.id else { return }
    heldEvents += events
    let tombstone = Tombstone(
      historyIndex: current.position, cardID: card.card.id, type: card.card.type,
      direction: direction)
    held += window.swipe(tombstone)
    self.current = nil
  }

  /// What an undo did.
  public enum UndoOutcome: Sendable, Hashable {
    /// The card is back on screen.
    case restored(ShownCard)
    /// Nothing to undo.
    case nothing
    /// The newest swipe's card is gone from its source: the swipe is final now, the card on
    /// screen stays, and the user is told why.
    case gone(String)
  }

  /// Undoes the newest swipe in the window when its card still exists (`card`, nil when its
  /// source removed it: then the swipe becomes final and the user is told); the card comes
  /// back on screen; the card that was there waits to come back after it, unlisted in the
  /// history meanwhile.
  public mutating func undo(
    now: Double, events: [AnalyticsEvent] = [], card: (String) -> PreparedCard?
  ) -> UndoOutcome {
    guard let newest = window.tombstones.last else { return .nothing }
    guard let back = card(newest.cardID) else {
      held += window.dropNewest()
      flushHeld(now: now)
      return .gone("That card was removed from its deck or source: it cannot come back.")
    }
    let effects = window.undo()
    guard case .restore(let tombstone) = effects.first else { return .nothing }
    flushHeld(now: now)
    if let current { returned.append(current) }
    enqueue(
      StateChange(
        effects: effects, returning: queue(onScreen: nil), events: events + [Self.undoEvent(tombstone)],
        time: now))
    current = ShownCard(prepared: back, position: tombstone.historyIndex)
    return .restored(ShownCard(prepared: back, position: number(tombstone.historyIndex)))
  }

  /// Live sources removed these cards: those waiting to come back leave the queue. The card
  /// on screen stays until it is swiped.
  public mutating func remove(ids: Set<String>) {
    guard !ids.isEmpty else { return }
    let waiting = returned
    returned.removeAll { ids.contains($0.prepared.card.id) }
    if returned != waiting { enqueue(StateChange(returning: queue(onScreen: nil), time: 0)) }
  }

  /// Whether the card is on screen or waiting to come back: the cards a live change must
  /// reach.
  public func holds(_ id: String) -> Bool {
    current?.prepared.card.id == id || returned.contains { $0.prepared.card.id == id }
  }

  /// Live sources changed these cards: the copies on screen and waiting to come back take the
  /// new data (`prepared` lays a card out for the screen).
  public mutating func update(_ cards: [Card], prepared: (Card) -> PreparedCard) {
    let byID = Dictionary(cards.map { ($0.id, $0) }) { _, last in last }
    for i in returned.indices {
      if let card = byID[returned[i].prepared.card.id] { returned[i].prepared = prepared(card) }
    }
    if let id = current?.prepared.card.id, let card = byID[id] { current?.prepared = prepared(card) }
  }

  /// A live source replaced its whole collection: the `on-replace` strategy decides which
  /// swipes stay undoable (`UndoWindow.sourceReplaced`); those that do not become final.
  public mutating func sourceReplaced(now: Double, stillThere: (String) -> Bool) {
    held += window.sourceReplaced { stillThere($0.cardID) }
    flushHeld(now: now)
  }

  /// The cards waiting to come back, first to return first, after the card `onScreen`.
  private func queue(onScreen: ShownCard?) -> ReturnQueue {
    ReturnQueue(onScreen: onScreen?.position, waiting: returned.reversed().map(\.position))
  }

  /// Turns a type on or off by the settings rules (`TypeSettings`). When the change applies,
  /// it is written, and the enabled types are returned for the feed.
  public mutating func setEnabled(
    _ type: String, _ enabled: Bool, confirmed: Bool, enabledNow: Set<String>, now: Double
  ) -> TypeSettings.Decision {
    let decision = TypeSettings.change(
      type, to: enabled, enabled: enabledNow, window: &window, confirmed: confirmed)
    guard case .apply(let types, let effects) = decision else { return decision }
    let waiting = returned
    // The last swipe's effects go before the commits the change makes.
    if !effects.isEmpty { flushHeld(now: now) }
    // A replaced collection throws the queue away; a type turned off takes only its cards.
    if effects.contains(.replace) {
      returned = []
    } else {
      returned.removeAll { !types.contains($0.prepared.card.type) }
    }
    let returning = returned == waiting ? nil : queue(onScreen: nil)
    enqueue(
      StateChange(effects: effects, enabled: [type: enabled], returning: returning, time: now))
    return decision
  }

  /// Another process changed the settings (`ctfo disable`): cards waiting to come back whose
  /// type is now off leave the queue. Nothing is written: the other process has.
  public mutating func adoptEnabled(_ types: Set<String>) {
    returned.removeAll { !types.contains($0.prepared.card.type) }
  }

  /// The writes queued since the last call, in sequence order, for the writer.
  public mutating func takeWrites() -> [Write] {
    defer { outgoing.removeAll(keepingCapacity: true) }
    return outgoing
  }

  /// The writer committed the change `sequence`; `indices` are the history numbers it gave
  /// the change's cards. A number other than the one expected (another process wrote rows
  /// meanwhile) moves the numbers expected after it as far.
  public mutating func committed(_ sequence: UInt64, indices: [Int]) {
    saveProblem = nil
    guard let index = indices.first else { return }
    if let guess = expected.removeValue(forKey: -Int(sequence)), guess != index {
      for key in expected.keys { expected[key]! += index - guess }
      nextIndex += index - guess
    }
    nextIndex = max(nextIndex, index + indices.count)
    resolve(-Int(sequence), to: index)
  }

  /// The writer could not write a change (it keeps it, and the ones after it, and tries again).
  public mutating func failed(reason: String) {
    saveProblem = "Cannot save to the state database (\(reason)); retrying, nothing is lost."
  }

  /// Writes what is held before quitting, and the cards to show first at the next launch:
  /// the card on screen, then those waiting to come back; with `events` (the last focus, the
  /// quit).
  public mutating func close(now: Double, events: [AnalyticsEvent] = []) {
    flushHeld(now: now)
    enqueue(StateChange(returning: queue(onScreen: current), events: events, time: now))
  }

  /// Records analytics events (app start, history opened) in a change of their own.
  public mutating func record(_ events: [AnalyticsEvent], now: Double) {
    guard !events.isEmpty else { return }
    enqueue(StateChange(events: events, time: now))
  }

  private static func undoEvent(_ tombstone: Tombstone) -> AnalyticsEvent {
    AnalyticsEvent(
      "Undo",
      [
        "card_id": .string(tombstone.cardID), "card_type": .string(tombstone.type),
        "reaction": .string(tombstone.direction.reaction.rawValue),
      ])
  }

  /// A card shown under the provisional number `provisional` got its row, numbered `index`.
  private mutating func resolve(_ provisional: Int, to index: Int) {
    if current?.position == provisional { current?.position = index }
    for i in returned.indices where returned[i].position == provisional {
      returned[i].position = index
    }
    window.resolve(provisional, to: index)
  }

  @discardableResult
  private mutating func enqueue(_ change: StateChange) -> UInt64 {
    lastSequence += 1
    outgoing.append(Write(change: change, sequence: lastSequence))
    return lastSequence
  }

  private mutating func hand(_ card: ShownCard) -> (item: FeedItem, position: Int) {
    current = card
    return (.card(card.prepared), number(card.position))
  }

  /// Writes the last swipe's effects on their own when no new card comes with them.
  private mutating func flushHeld(now: Double) {
    guard !held.isEmpty || !heldEvents.isEmpty else { return }
    enqueue(StateChange(effects: held, events: heldEvents, time: now))
    held = []
    heldEvents = []
  }
}
