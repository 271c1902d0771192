/// The cards a live source holds now, kept by id from its `CardUpdate`s, and what each update
/// changed. Pure: it holds exactly the source's current cards (its memory is the source's size,
/// however long the stream runs) and no order beyond what the feed's rounds decide.
///
///     var cards = LiveCollection()
///     let change = cards.apply(.added([card]))   // change.added == [card]
///     cards.apply(.removed([card.id])).removed   // [card]
public struct LiveCollection: Sendable {
  /// The current cards by id.
  public private(set) var cards: [String: Card] = [:]

  /// What one update changed. A card whose type changed is removed (from its old type) and
  /// added (to its new one), so each type's pool sees a plain removal and a plain addition.
  public struct Change: Sendable, Equatable {
    public var added: [Card] = []
    public var updated: [Card] = []
    /// The cards as they were before they left.
    public var removed: [Card] = []
    /// Whether the update replaced the whole collection (`initial` after the first, or
    /// `replaced`): the feed then applies its `on-replace` strategy (feed-logic.md, "Card
    /// Settings").
    public var replaced = false

    public init(
      added: [Card] = [], updated: [Card] = [], removed: [Card] = [], replaced: Bool = false
    ) {
      self.added = added
      self.updated = updated
      self.removed = removed
      self.replaced = replaced
    }

    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty && !replaced }
  }

  public init() {}

  public var count: Int { cards.count }

  /// Applies `update`. Within one update a later copy of an id wins; a card given again
  /// unchanged changes nothing.
  @discardableResult
  public mutating func apply(_ update: CardUpdate) -> Change {
    switch update {
    case .initial(let new) where cards.isEmpty: return upsert(new)
    case .initial(let new), .replaced(let new): return replace(with: new)
    case .added(let new), .updated(let new): return upsert(new)
    case .types: return Change()
    case .removed(let ids):
      var change = Change()
      for id in ids {
        if let gone = cards.removeValue(forKey: id) { change.removed.append(gone) }
      }
      return change
    }
  }

  private mutating func upsert(_ new: [Card]) -> Change {
    var change = Change()
    for card in Self.lastOfEachID(new) {
      switch cards.updateValue(card, forKey: card.id) {
      case nil: change.added.append(card)
      case let old? where old == card: continue
      case let old? where old.type != card.type:
        change.removed.append(old)
        change.added.append(card)
      case _?: change.updated.append(card)
      }
    }
    return change
  }

  private mutating func replace(with new: [Card]) -> Change {
    let latest = Self.lastOfEachID(new)
    let kept = Set(latest.map(\.id))
    var change = Change(replaced: true)
    for (id, old) in cards where !kept.contains(id) {
      change.removed.append(old)
      cards[id] = nil
    }
    change.removed.sort { $0.id < $1.id }
    let upserted = upsert(latest)
    change.added = upserted.added
    change.updated = upserted.updated
    change.removed += upserted.removed
    return change
  }

  /// `cards` with only the last copy of each id, in the order of those last copies.
  private static func lastOfEachID(_ cards: [Card]) -> [Card] {
    var last: [String: Int] = [:]
    for (index, card) in cards.enumerated() { last[card.id] = index }
    guard last.count < cards.count else { return cards }
    return cards.enumerated().filter { last[$0.element.id] == $0.offset }.map(\.element)
  }
}
