/// One transaction of state: undo effects (a swipe's reaction and tombstone, an eviction's
/// reaction event, an undo), history rows of cards shown, and settings.
///
/// A swipe is one change: `StateChange(effects: window.swipe(t), shown: [next], time: now)`,
/// so its reaction, its tombstone, any eviction and the next card's history row commit
/// together or not at all. The store numbers the history rows inside the transaction, so two
/// processes on one home never take the same number.
public struct StateChange: Sendable, Hashable {
  /// Applied in order; `.replace`, `.refuseReplacement` and `.askUser` write nothing.
  public var effects: [UndoEffect]
  /// History rows appended, after the effects, numbered by the store.
  public var shown: [ShownRecord]
  /// Types enabled (true) or disabled (false).
  public var enabled: [String: Bool]
  /// The cards that come back before any new card, replacing those stored; nil keeps them.
  public var returning: ReturnQueue?
  /// Analytics events recorded with the change (besides those the store makes of its
  /// effects and settings: final reactions, types turned on or off).
  public var events: [AnalyticsEvent]
  /// Seconds since 1970: the time stamped on reaction events.
  public var time: Double

  public init(
    effects: [UndoEffect] = [], shown: [ShownRecord] = [], enabled: [String: Bool] = [:],
    returning: ReturnQueue? = nil, events: [AnalyticsEvent] = [], time: Double
  ) {
    self.events = events
    self.effects = effects
    self.shown = shown
    self.enabled = enabled
    self.returning = returning
    self.time = time
  }

  /// The change with each provisional history index (a negative number: a card shown before
  /// its row was written, while the disk refused writes) replaced by the row's number, as
  /// `number` gives it. A piece whose number is not known (none should be: the row's change
  /// is written first) is left out rather than written against another row.
  public func resolvingProvisional(_ number: (Int) -> Int?) -> StateChange {
    func resolve(_ index: Int) -> Int? { index >= 0 ? index : number(index) }
    var change = self
    change.effects = effects.compactMap { effect in
      func fixed(_ t: Tombstone, _ make: (Tombstone) -> UndoEffect) -> UndoEffect? {
        guard let index = resolve(t.historyIndex) else { return nil }
        var t = t
        t.historyIndex = index
        return make(t)
      }
      switch effect {
      case .entomb(let t): return fixed(t, UndoEffect.entomb)
      case .commit(let t): return fixed(t, UndoEffect.commit)
      case .discard(let t): return fixed(t, UndoEffect.discard)
      case .restore(let t): return fixed(t, UndoEffect.restore)
      default: return effect
      }
    }
    if let queue = returning {
      change.returning = ReturnQueue(
        onScreen: queue.onScreen.flatMap(resolve), waiting: queue.waiting.compactMap(resolve))
    }
    return change
  }

  /// Whether it holds a provisional history index.
  public var isProvisional: Bool {
    effects.contains { effect in
      switch effect {
      case .entomb(let t), .commit(let t), .discard(let t), .restore(let t): t.historyIndex < 0
      default: false
      }
    } || (returning.map { ($0.onScreen ?? 0) < 0 || $0.waiting.contains { $0 < 0 } } ?? false)
  }

  /// True when applying it would write nothing.
  public var isEmpty: Bool {
    shown.isEmpty && enabled.isEmpty && returning == nil && events.isEmpty
      && effects.allSatisfy {
        switch $0 {
        case .replace, .refuseReplacement, .askUser: true
        default: false
        }
      }
  }
}

/// The cards shown but not swiped that come back before any new card, by history index: the
/// card on screen when the app quit, then the cards an undo pushed back, in the order they
/// return.
///
/// A card pushed back waits to be shown again, so the history does not list it until it is:
/// listed, it would look as if it came after the card on screen. The card on screen at quit
/// stays listed; it is the newest card shown.
public struct ReturnQueue: Sendable, Hashable {
  /// The card on screen when the app quit; shown first at the next launch.
  public var onScreen: Int?
  /// The cards an undo pushed back, first to return first; unlisted until shown again.
  public var waiting: [Int]

  public init(onScreen: Int? = nil, waiting: [Int] = []) {
    self.onScreen = onScreen
    self.waiting = waiting
  }
}

/// A card shown, before the store gives its history row a number.
public struct ShownRecord: Sendable, Hashable {
  public var cardID: String
  public var type: String
  public var title: String?
  /// Seconds since 1970.
  public var shownAt: Double

  public init(cardID: String, type: String, title: String?, shownAt: Double) {
    self.cardID = cardID
    self.type = type
    self.title = title
    self.shownAt = shownAt
  }

  public init(_ card: Card, shownAt: Double) {
    self.init(cardID: card.id, type: card.type, title: card.title, shownAt: shownAt)
  }

  /// The history entry this record became at `index`.
  public func entry(at index: Int) -> HistoryEntry {
    HistoryEntry(index: index, cardID: cardID, type: type, title: title, shownAt: shownAt)
  }
}
