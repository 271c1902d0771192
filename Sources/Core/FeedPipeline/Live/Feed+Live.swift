import FeedCore
import Synchronization
import YieldToUser

/// The cards live sources gave the feed, and the changes they made to the cards of the feed's
/// own source (the deck index): by id, with the engine's key of each.
struct LiveCards {
  /// id -> key, for every card a live source added or changed.
  var keys: [String: CardKey] = [:]
  /// The data behind those keys: fetched from here, not from the source.
  var cards: [CardKey: Card] = [:]
  /// Cards of the feed's own source that a live source removed (bounded by that source).
  var goneFromBase: Set<String> = []

  /// Whether the two maps need more room for `more` cards.
  func needsRoom(for more: Int) -> Bool {
    keys.capacity < keys.count + more || cards.capacity < cards.count + more
  }
}

/// What live changes did since the app last looked (`Feed.takeNews`).
public struct LiveNews: Sendable, Equatable {
  /// Cards changed, by id (each one's latest data): the one on screen is drawn again from it.
  public var updated: [String: Card] = [:]
  /// Cards removed: one waiting to come back (after an undo) leaves that queue too.
  public var removed: Set<String> = []
  /// A source replaced its whole collection: the app applies its `on-replace` strategy.
  public var replaced = false
  /// A source ended or failed; once each, for the status line.
  public var messages: [String] = []
  /// A type joined the catalog or a source gave type labels: the settings and the card's
  /// header show them.
  public var typesChanged = false

  public init() {}

  public var isEmpty: Bool {
    updated.isEmpty && removed.isEmpty && !replaced && messages.isEmpty && !typesChanged
  }
}

/// Where a card is, for undo and the history (`Feed.lookUp`).
public enum LiveLookup: Sendable, Equatable {
  /// A live source holds the card: this is its data now.
  case live(Card)
  /// A live source removed it.
  case removed
  /// No live source has touched it: ask the feed's own source.
  case unknown
}

extension Feed {
  /// Cards a live change applies per hold of the feed's lock, which the UI thread needs to deal
  /// a card: larger batches held the lock longer (`ctfo-bench feed-apply`), and the whole
  /// change takes no longer in batches this small.
  static let applyBatch = 16

  /// Room for `more` new cards in the live maps, made outside the feed's lock: grown under it,
  /// a batch at a time or all at once, they were rehashed with every card they held while the
  /// UI thread waited (long, once they held thousands). The maps are copied with room to
  /// spare and swapped in; only `apply` changes them, and `applying` keeps it to one at a time,
  /// so the copy misses nothing. The swap leaves the old storage here, released after the lock.
  private func makeRoom(for more: Int) {
    guard more > 0,
      var (keys, cards) = state.withLock({ s in
        s.live.needsRoom(for: more) ? (s.live.keys, s.live.cards) : nil
      })
    else { return }
    keys.reserveCapacity(keys.count + more)
    cards.reserveCapacity(cards.count + more)
    state.withLock { s in
      swap(&s.live.keys, &keys)
      swap(&s.live.cards, &cards)
    }
  }

  /// The ids no live source holds yet, read outside the feed's lock from a copy of the map
  /// (a large pull's look-ups would hold the lock too long). Only `apply` changes the map, under
  /// `applying`. The copy goes when this returns: alive during the batches, it would make the
  /// first change to the map copy all of it, under the lock.
  private func unknownToLive(_ ids: [String]) -> [String] {
    let keys = state.withLock { $0.live.keys }
    return ids.filter { keys[$0] == nil }
  }

  /// Applies one change of a live source (`LiveCollection` computes it from the source's
  /// updates).
  ///
  /// - Removed cards leave both queues at once (their preparations are cancelled) and are never
  ///   dealt again; a card already shown only frees its ordinal, so the next card is not skipped.
  /// - Added cards join their type's pool, unseen (a new type joins the catalog, on unless the
  ///   settings turned it off); an id the feed already has is a change of that card.
  /// - Changed cards that are queued are prepared again before they show.
  /// - A replacement then throws both queues away and starts the rounds over.
  ///
  /// `base` finds a card of the feed's own source by id (its type and ordinal), for changes to
  /// those cards; it is called outside the feed's lock. `types` are type metadata (labels).
  public func apply(
    _ change: LiveCollection.Change, types: [CardType] = [],
    base: (String) -> CardKey? = { _ in nil }
  ) {
    applying.withLock { _ in
      // Looked up: every removed card (a removed card of the deck index must not come back from
      // the index, by undo or the history) and the cards no live source holds yet.
      let changed = change.updated.map(\.id) + change.added.map(\.id)
      Courtesy.yieldPoint()
      let unknown = unknownToLive(changed)
      Courtesy.yieldPoint()
      makeRoom(for: change.added.count)
      var baseKeys: [String: CardKey] = [:]
      // A card the source numbered after launch is not one of the feed's own (its ordinal
      // may be a live card's).
      for id in Set(unknown + change.removed.map(\.id)) {
        Courtesy.yieldPoint()
        if let key = base(id), key.ordinal < baseCounts[key.type] ?? 0 { baseKeys[id] = key }
      }
      // `applyBatch` cards per hold of the lock: a large pull never keeps the UI thread's next
      // card waiting for the whole of it.
      // The removals, then the changes and additions, read where they are: copied into one
      // array of steps, a large pull held the CPU with no yield point.
      let (removed, updated, added) = (change.removed, change.updated, change.added)
      let count = removed.count + updated.count + added.count
      func step(_ index: Int) -> (Card, Bool) {
        if index < removed.count { return (removed[index], true) }
        let index = index - removed.count
        return (index < updated.count ? updated[index] : added[index - updated.count], false)
      }
      var start = 0
      repeat {
        let batch = (start..<min(start + Self.applyBatch, count)).lazy.map(step)
        let last = start + Self.applyBatch >= count
        Courtesy.pause()
        let (handoffs, effects) = state.withLock { s in
          var effects: [FeedEffect] = []
          if start == 0, !types.isEmpty {
            for type in types { s.metadata[type.name] = type }
            s.news.typesChanged = true
          }
          for (card, removal) in batch {
            effects +=
              removal ? remove(card.id, &s, base: baseKeys) : upsert(card, &s, base: baseKeys)
          }
          if last, change.replaced {
            effects += s.engine.replaceAll()
            s.news.replaced = true
          }
          if last { effects += s.engine.renewFailedTypes() }
          return handOffToWaiters(&s, effects: effects)
        }
        // The app is woken once, at the end, and only for news (a removal, a change, a new
        // type): a card that becomes ready wakes it when its preparation ends.
        finish(handoffs, effects, wake: false)
        start += Self.applyBatch
      } while start < count
      if !state.withLock({ $0.news.isEmpty }) { onReady() }
    }
  }

  /// Tells the app a source ended or failed (once each).
  public func report(_ message: String) {
    state.withLock { $0.news.messages.append(message) }
    onReady()
  }

  /// What live changes did since the last call.
  public func takeNews() -> LiveNews {
    state.withLock { s in
      defer { s.news = LiveNews() }
      return s.news
    }
  }

  /// Whether live sources hold, removed or never touched the card `id`.
  public func lookUp(_ id: String) -> LiveLookup {
    state.withLock { s in
      if let key = s.live.keys[id], let card = s.live.cards[key] { return .live(card) }
      return s.live.goneFromBase.contains(id) ? .removed : .unknown
    }
  }

  private func remove(
    _ id: String, _ s: inout State, base: [String: CardKey]
  ) -> [FeedEffect] {
    // A live card (maybe a changed card of the feed's own source), else one of its own.
    let live = s.live.keys.removeValue(forKey: id)
    guard let key = live ?? (s.live.goneFromBase.contains(id) ? nil : base[id]) else { return [] }
    if live != nil { s.live.cards[key] = nil }
    if base[id] != nil { s.live.goneFromBase.insert(id) }
    s.news.removed.insert(id)
    s.news.updated[id] = nil
    return s.engine.remove(type: key.type, ordinal: key.ordinal)
  }

  private func upsert(
    _ card: Card, _ s: inout State, base: [String: CardKey]
  ) -> [FeedEffect] {
    let known =
      s.live.keys[card.id]
      ?? (s.live.goneFromBase.contains(card.id) ? nil : base[card.id])
    if let key = known, key.type == card.type {
      s.live.keys[card.id] = key
      s.live.cards[key] = card
      s.news.updated[card.id] = card
      return s.engine.update(type: key.type, ordinal: key.ordinal)
    }
    var effects: [FeedEffect] = []
    // The same id under another type: the old card leaves its type's pool.
    if known != nil { effects += remove(card.id, &s, base: base) }
    let isOn = !s.disabled.contains(card.type)
    if !s.engine.types.contains(card.type) { s.news.typesChanged = true }
    let (ordinal, more) = s.engine.add(type: card.type, enabled: isOn)
    let key = CardKey(type: card.type, ordinal: ordinal)
    s.live.keys[card.id] = key
    s.live.cards[key] = card
    s.live.goneFromBase.remove(card.id)
    s.news.removed.remove(card.id)
    return effects + more
  }
}
