/// One change from a live source (async-card-stack.md, "Data Sources" and "Automatic
/// Updates"): its first cards, cards added, changed or removed, or the whole collection
/// replaced. A live source's updates are an `AsyncSequence` of these (`LiveSource`).
public enum CardUpdate: Sendable, Hashable {
  /// The cards the source holds when it starts.
  case initial([Card])
  /// New cards; a card whose id the source already gave is a change of that card.
  case added([Card])
  /// Changed cards, known by id; a card never given before is added.
  case updated([Card])
  /// The cards of these ids are gone; an unknown id is ignored.
  case removed([String])
  /// Everything the source holds now: cards it no longer lists are gone.
  case replaced([Card])
  /// The labels, colours and descriptions of types the source's cards use (a deck's header);
  /// changes no card.
  case types([CardType])
}
