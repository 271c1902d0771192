import CardPreparation
import CardText
import DequeModule
import FeedCore

/// The feed dealt on the calling thread, one preparation after another: what `ctfo next`
/// runs. It prints cards in deal order, and a card of the deck index is ready almost at once,
/// so tasks would only add their start-up to a command meant to be as quick as fortune.
///
/// With the same catalog, settings, seed and lookahead it deals the cards a `Feed` created
/// with `inDealOrder: true` hands out: both drive the same `FeedEngine` through the same
/// calls (a failing source aside, whose replacements a `Feed` deals in the order its
/// preparations fail).
///
///     let cards = try SerialDeal.cards(3, catalog: types, enabled: ["fact"], seed: 1,
///                                      area: TextArea(width: 60, height: 12)) { type, ordinal in
///       try reader.card(type: type, ordinal: ordinal)!
///     }
public enum SerialDeal {
  /// The next `count` cards, sanitised and laid out for `area`.
  ///
  /// - Parameter fetch: the card of a type at an ordinal; throwing skips the card (marked
  ///   seen, never retried) and the slot goes to another card of the same type.
  /// - Throws: `FeedUnavailable` when no card can be prepared any more.
  public static func cards(
    _ count: Int, catalog: [TypeCount], enabled: Set<String>, lookahead: Int = 5, seed: UInt64,
    resuming progress: RoundProgress<Int> = RoundProgress(), area: TextArea,
    mark: TruncationMark = .ellipsis, scores: [PoolScore] = [],
    fetch: (_ type: String, _ ordinal: Int) throws -> Card
  ) throws(FeedUnavailable) -> [PreparedCard] {
    // The queue holds fetched cards, sanitised and laid out only when taken: `next -n 1`
    // keeps eight in flight (for a deal that does not depend on the batch's size) and shows one.
    var engine = FeedEngine<Card>(
      types: catalog.map { (name: $0.type.name, cards: $0.cards) }, enabled: enabled,
      lookahead: lookahead, seed: seed, resuming: progress)
    engine.updateScores(scores)
    var effects = Deque(engine.fill())
    func prepareAll() {
      while let effect = effects.popFirst() {
        guard case .prepare(let slot) = effect else { continue }
        do {
          engine.prepared(slot, try fetch(slot.type, slot.ordinal))
        } catch {
          effects.append(contentsOf: engine.failed(slot))
        }
      }
    }
    var cards: [PreparedCard] = []
    cards.reserveCapacity(count)
    while cards.count < count {
      prepareAll()
      let (card, more) = engine.takeNext(inDealOrder: true)
      guard let card else { throw FeedUnavailable() }
      cards.append(Preparation.laidOut(Preparation.sanitized(card), for: area, mark: mark))
      effects.append(contentsOf: more)
    }
    return cards
  }
}

/// Nothing can be prepared: every enabled type is empty or failing.
public struct FeedUnavailable: Error, Hashable, CustomStringConvertible {
  public init() {}

  public var description: String {
    "No card can be prepared: every enabled type is empty or failing. Enable another type in settings, or check the decks."
  }
}
