import DequeModule

/// The feed of feed-logic.md as a pure state machine: type rounds, scored pools, the queue of
/// cards in preparation and the queue of ready cards.
///
/// Every mutation returns the effects the runner must perform (start or cancel preparations).
/// The runner (`FeedPipeline.Feed`) reports each preparation's outcome back with `prepared` or
/// `failed`; a result for a slot that already left the queues is ignored, so a cancelled
/// preparation never reaches the ready queue.
///
///     var engine = FeedEngine<String>(types: [("fact", 10)], enabled: ["fact"], seed: 1)
///     let effects = engine.fill()  // five .prepare effects
public struct FeedEngine<Payload: Sendable>: Sendable {
  /// A ready card and the slot it filled.
  public struct Ready: Sendable {
    public var slot: FeedSlot
    public var payload: Payload
  }

  /// Type names in catalog order (a live source's new types at the end).
  public private(set) var types: [String]
  /// How many cards are kept in preparation or ready.
  public let lookahead: Int
  public private(set) var enabled: Set<String>
  public private(set) var preparing: [FeedSlot] = []
  public private(set) var ready: Deque<Ready> = []
  private var pools: [String: ScoredPool]
  private var rounds = TypeRounds()
  private var rng: SeededGenerator
  private var nextSlotID: UInt64 = 0
  /// Ordinals of removed cards, by type, for the next cards added (see `ScoredPool.revive`).
  private var freeOrdinals: [String: [Int]] = [:]
  /// Each type's round as the user sees it: the cards shown since the type last started over,
  /// and the card shown last. A card shown in its round is not shown again before the round
  /// ends, whatever was dealt ahead, thrown away or prepared late.
  private var shownRound: [String: Set<Int>] = [:]
  private var lastShown: [String: Int] = [:]

  /// `progress` is where the home's rounds stood at the end of the last run (by ordinal): its
  /// cards are out of their types' rounds, and the types not yet shown in the round of types
  /// come first.
  public init(
    types: [(name: String, cards: Int)], enabled: Set<String>, lookahead: Int = 5, seed: UInt64,
    resuming progress: RoundProgress<Int> = RoundProgress()
  ) {
    self.types = types.map(\.name)
    self.lookahead = max(lookahead, 1)
    self.enabled = enabled
    rng = SeededGenerator(seed: seed)
    var salts = SeededGenerator(seed: seed ^ 0x5A17_5A17_5A17_5A17)
    pools = Dictionary(
      types.map { ($0.name, ScoredPool(count: $0.cards, salt: salts.next())) }
    ) { a, _ in a }
    // Sorted: the order cards leave a pool shapes its shuffle, and a set's order changes from
    // process to process, which would make `--seed` deal differently.
    for (type, ordinals) in progress.seen.sorted(by: { $0.key < $1.key }) where pools[type] != nil {
      for ordinal in ordinals.sorted() { pools[type]!.markSeen(ordinal) }
      shownRound[type] = ordinals.filter { $0 >= 0 && $0 < pools[type]!.count }
    }
    if !progress.typesShown.isEmpty {
      rounds.resume(after: progress.typesShown, among: dealableTypes, using: &rng)
    }
  }

  /// Types that can be dealt now: enabled, with cards that can still be prepared.
  public var dealableTypes: [String] {
    types.filter { enabled.contains($0) && pools[$0]!.availableCount > 0 }
  }

  /// True when nothing is queued and nothing can be prepared: the feed has ended (every
  /// enabled type is empty or failing). The user must be told instead of waiting forever.
  public var isUnavailable: Bool { preparing.isEmpty && ready.isEmpty && dealableTypes.isEmpty }

  /// Every type with its card count, setting and failing flag.
  public var standings: [TypeStanding] {
    types.map { name in
      let pool = pools[name]!
      return TypeStanding(
        name: name, cards: pool.liveCount, enabled: enabled.contains(name),
        failing: pool.count > 0 && pool.availableCount == 0)
    }
  }

  /// Starts preparations until `lookahead` cards are in preparation or ready.
  public mutating func fill() -> [FeedEffect] {
    var effects: [FeedEffect] = []
    while preparing.count + ready.count < lookahead,
      let type = rounds.next(among: dealableTypes, using: &rng),
      let slot = newSlot(of: type)
    {
      effects.append(.prepare(slot))
    }
    return effects
  }

  /// Takes the ready card dealt first (nil when none is ready: show the placeholder) and starts
  /// the preparation of one more. A card is never waited for while another is ready; among the
  /// ready ones the oldest deal goes first, so a type with fewer cards than the lookahead,
  /// whose next round is dealt before this one is shown, shows this round's cards first (in
  /// order of readiness the card just swiped could come straight back).
  ///
  /// `inDealOrder` waits instead for the oldest card dealt, so that the order shown depends
  /// only on the seed and not on which preparation finished first: reproducible output for
  /// `ctfo next --seed`.
  public mutating func takeNext(inDealOrder: Bool = false) -> (
    payload: Payload?, effects: [FeedEffect]
  ) {
    guard let i = nextReadyIndex(inDealOrder: inDealOrder) else { return (nil, fill()) }
    let taken = ready.remove(at: i)
    show(taken.slot)
    return (taken.payload, fill())
  }

  /// True when `takeNext(inDealOrder:)` would hand out a card.
  public func hasNext(inDealOrder: Bool = false) -> Bool {
    nextReadyIndex(inDealOrder: inDealOrder) != nil
  }

  /// The ready card to show next: the one dealt first among those its type's round can show.
  /// A card already shown in its round waits (a type smaller than the queue has its next
  /// round dealt ahead) while a card of the round is still being prepared; when none is, the
  /// oldest ready card comes, so the feed never stalls.
  private func nextReadyIndex(inDealOrder: Bool) -> Int? {
    // `update` prepares a card again in a new slot that keeps its turn: the oldest is the
    // smallest `dealt`, not the first in the queue.
    if inDealOrder {
      let oldest = preparing.lazy.map(\.dealt).min() ?? .max
      return ready.indices.filter { ready[$0].slot.dealt < oldest }.min {
        ready[$0].slot.dealt < ready[$1].slot.dealt
      }
    }
    let byAge = ready.indices.sorted { ready[$0].slot.dealt < ready[$1].slot.dealt }
    if let i = byAge.first(where: { isShowable(ready[$0].slot) }) { return i }
    return preparing.contains(where: isShowable) ? nil : byAge.first
  }

  /// Whether showing the slot's card keeps its type's round: it was not shown in the round, or
  /// the round has shown every card the type can show.
  private func isShowable(_ slot: FeedSlot) -> Bool {
    guard let seen = shownRound[slot.type], seen.contains(slot.ordinal) else { return true }
    return seen.count >= pools[slot.type]!.availableCount
  }

  /// Records a card shown in its type's round (a new round when the last one was complete).
  private mutating func show(_ slot: FeedSlot) {
    let seen = shownRound[slot.type] ?? []
    if seen.contains(slot.ordinal) || seen.count >= pools[slot.type]!.availableCount {
      shownRound[slot.type] = []
    }
    shownRound[slot.type, default: []].insert(slot.ordinal)
    lastShown[slot.type] = slot.ordinal
    closeRoundIfComplete(slot.type)
  }

  /// A round that showed every card the type can show ends at once (after a show, a failure or
  /// a removal): a card added before the next show joins the next round, as every other card
  /// does. The pool starts over unless the next round is dealt already.
  private mutating func closeRoundIfComplete(_ type: String) {
    guard let seen = shownRound[type], !seen.isEmpty,
      seen.count >= pools[type]!.availableCount
    else { return }
    shownRound[type] = []
    if ordinalsQueued(of: type).isEmpty { pools[type]!.restart(shown: [], last: lastShown[type]) }
  }

  /// A preparation ended well: the card enters the ready queue at once, whatever its place in
  /// the preparation queue.
  public mutating func prepared(_ slot: FeedSlot, _ payload: Payload) {
    guard leavePreparation(slot) else { return }
    ready.append(Ready(slot: slot, payload: payload))
  }

  /// A preparation failed: the card is marked seen and never retried; its other places in the
  /// queues (a type smaller than the queue deals a card again) leave them too, and each place
  /// goes to another card of the same type, or, when the type has none left, to the other types.
  public mutating func failed(_ slot: FeedSlot) -> [FeedEffect] {
    guard leavePreparation(slot) else { return [] }
    let (type, ordinal) = (slot.type, slot.ordinal)
    pools[type]!.markFailed(ordinal)
    shownRound[type]?.remove(ordinal)
    let copies = preparing.filter { $0.type == type && $0.ordinal == ordinal }
    let places =
      1 + copies.count + ready.count { $0.slot.type == type && $0.slot.ordinal == ordinal }
    preparing.removeAll { $0.type == type && $0.ordinal == ordinal }
    ready.removeAll { $0.slot.type == type && $0.slot.ordinal == ordinal }
    closeRoundIfComplete(type)
    return copies.map(FeedEffect.cancel) + redeal(type, places: places)
  }

  /// Applies new settings. Cards of a type taken out leave both queues and the queue refills;
  /// when a type is turned (back) on, both queues are thrown away and the rounds start over,
  /// so the balance of types stays equal. Cards that leave unshown return to their pools.
  public mutating func setEnabled(_ types: Set<String>) -> [FeedEffect] {
    let added = !types.subtracting(enabled).isEmpty
    enabled = types
    let effects = throwBackQueued { added || !types.contains($0.type) }
    if added { rounds.reset() }
    return effects + fill()
  }

  /// Starts a new round for each type every card of which failed (its source is back: a pull
  /// succeeded, a deck changed): its cards can be dealt again. Not a retry of the round that
  /// failed, a new one. Returns the preparations to start.
  public mutating func renewFailedTypes() -> [FeedEffect] {
    for type in types where pools[type]!.liveCount > 0 && pools[type]!.availableCount == 0 {
      pools[type]!.forgetFailures()
      shownRound[type] = nil
    }
    return fill()
  }

  /// Applies server scores to unseen cards (see `updateScore`).
  public mutating func updateScores(_ scores: [PoolScore]) {
    for entry in scores { updateScore(type: entry.type, ordinal: entry.ordinal, to: entry.score) }
  }

  /// Applies a server score to an unseen card (kept only if newer; ignored once seen).
  @discardableResult
  public mutating func updateScore(
    type: String, ordinal: Int, to score: ScoredPool.Score
  ) -> Bool {
    pools[type]?.update(ordinal, to: score) ?? false
  }

  /// Replaces the payload of a ready card (after laying it out again for a new size). Returns
  /// false when the slot is no longer ready.
  @discardableResult
  public mutating func replaceReady(_ slot: FeedSlot, with payload: Payload) -> Bool {
    guard let i = ready.firstIndex(where: { $0.slot.id == slot.id }) else { return false }
    ready[i].payload = payload
    return true
  }

  // MARK: Live sources

  /// A source added a card of `type` (a new type joins the catalog, enabled or not as
  /// `enabled` says; an existing type keeps its setting). Returns the card's ordinal, a removed
  /// card's when one is free, and the preparations to start: a feed that had nothing to deal
  /// starts on it.
  public mutating func add(type: String, enabled isEnabled: Bool = true) -> (
    ordinal: Int, effects: [FeedEffect]
  ) {
    if pools[type] == nil {
      types.append(type)
      pools[type] = ScoredPool(count: 0, salt: rng.next())
      if isEnabled { enabled.insert(type) }
    }
    let queued = preparing.filter { $0.type == type } + ready.map(\.slot).filter { $0.type == type }
    let repeats = !queued.isEmpty && queued.count >= pools[type]!.availableCount
    let dealtTwice = Set(queued.map(\.ordinal)).count < queued.count
    let ordinal: Int
    if let free = freeOrdinals[type]?.popLast() {
      pools[type]!.revive(free)
      ordinal = free
    } else {
      ordinal = pools[type]!.append()
    }
    // The new card joins the round being shown. A type smaller than the queue has its few cards
    // queued again and again (each a new round), and a round may already be dealt ahead: the
    // new card would wait behind those, and the round would show a card twice before it. They
    // go back to the pool and the type's places in the queue are dealt again from its cards,
    // the new one among them.
    guard repeats || dealtTwice || queued.contains(where: { !isShowable($0) }) else {
      return (ordinal, fill())
    }
    let effects = throwBackQueued { $0.type == type }
    return (ordinal, effects + redeal(type, places: queued.count))
  }

  /// A source removed a card: it leaves both queues at once (its preparation is cancelled) and
  /// is never dealt again; the queue refills. A card already shown only loses its ordinal,
  /// which a later card may take: the next card is not skipped.
  public mutating func remove(type: String, ordinal: Int) -> [FeedEffect] {
    guard let pool = pools[type], ordinal >= 0, ordinal < pool.count,
      !pool.removed.contains(Int32(ordinal))
    else { return [] }
    var effects: [FeedEffect] = []
    for slot in preparing where slot.type == type && slot.ordinal == ordinal {
      effects.append(.cancel(slot))
    }
    let places =
      preparing.count { $0.type == type && $0.ordinal == ordinal }
      + ready.count { $0.slot.type == type && $0.slot.ordinal == ordinal }
    preparing.removeAll { $0.type == type && $0.ordinal == ordinal }
    ready.removeAll { $0.slot.type == type && $0.slot.ordinal == ordinal }
    pools[type]!.remove(ordinal)
    shownRound[type]?.remove(ordinal)
    closeRoundIfComplete(type)
    freeOrdinals[type, default: []].append(ordinal)
    // Its places in the queue go to cards of its own type, as a failed card's does: a small type
    // whose cards are replaced often keeps its share.
    return effects + redeal(type, places: places)
  }

  /// A source changed a card: if it is queued, its preparation starts again from the new data
  /// (a ready card leaves the ready queue for the preparation queue), so it is laid out again
  /// before it shows. A card not queued needs nothing: it is fetched when dealt.
  public mutating func update(type: String, ordinal: Int) -> [FeedEffect] {
    var effects: [FeedEffect] = []
    for i in preparing.indices where preparing[i].type == type && preparing[i].ordinal == ordinal {
      effects.append(.cancel(preparing[i]))
      nextSlotID += 1
      preparing[i] = FeedSlot(
        id: nextSlotID, type: type, ordinal: ordinal, dealt: preparing[i].dealt)
      effects.append(.prepare(preparing[i]))
    }
    for entry in ready where entry.slot.type == type && entry.slot.ordinal == ordinal {
      nextSlotID += 1
      let slot = FeedSlot(id: nextSlotID, type: type, ordinal: ordinal, dealt: entry.slot.dealt)
      preparing.append(slot)
      effects.append(.prepare(slot))
    }
    ready.removeAll { $0.slot.type == type && $0.slot.ordinal == ordinal }
    return effects
  }

  /// A source replaced its whole collection (its removals and additions already applied):
  /// both queues are thrown away and the rounds start over, so the balance of types stays
  /// equal (feed-logic.md, "Card Settings"); unshown cards return to their pools.
  public mutating func replaceAll() -> [FeedEffect] {
    let effects = throwBackQueued { _ in true }
    rounds.reset()
    return effects + fill()
  }

  /// True while the slot is in the preparation queue.
  public func isPreparing(_ slot: FeedSlot) -> Bool { preparing.contains { $0.id == slot.id } }

  /// Deals a card of `type` into the preparation queue: its pool's next card, passing over the
  /// cards of the type still queued from the round before (see `ScoredPool.promote`).
  private mutating func newSlot(of type: String) -> FeedSlot? {
    guard enabled.contains(type), pools[type] != nil else { return nil }
    let queued = ordinalsQueued(of: type)
    guard let ordinal = pools[type]!.promote(avoiding: queued, using: &rng) else { return nil }
    nextSlotID += 1
    let slot = FeedSlot(id: nextSlotID, type: type, ordinal: ordinal)
    preparing.append(slot)
    return slot
  }

  /// Takes the queued slots that `leaves` out of both queues (cancelling the preparations);
  /// `leaves` takes all of a type's slots or none. Each type whose cards left starts its round
  /// again from the cards shown in it: what was dealt ahead, in this round or the next (a type
  /// smaller than the queue), is dealt again.
  private mutating func throwBackQueued(where leaves: (FeedSlot) -> Bool) -> [FeedEffect] {
    let cancelled = preparing.filter(leaves)
    let left = Set((cancelled + ready.map(\.slot).filter(leaves)).map(\.type))
    preparing.removeAll(where: leaves)
    ready.removeAll { leaves($0.slot) }
    for type in left.sorted() {
      pools[type]!.restart(shown: roundShown(type), last: lastShown[type])
    }
    return cancelled.map(FeedEffect.cancel)
  }

  /// The cards shown in the type's current round; none when the round is complete.
  private func roundShown(_ type: String) -> Set<Int> {
    let seen = shownRound[type] ?? []
    return seen.count >= pools[type]!.availableCount ? [] : seen
  }

  /// Deals up to `places` cards of `type` (the places its cards left in the queue), then fills
  /// the rest as usual.
  private mutating func redeal(_ type: String, places: Int) -> [FeedEffect] {
    var effects: [FeedEffect] = []
    for _ in 0..<places {
      guard preparing.count + ready.count < lookahead, let slot = newSlot(of: type) else { break }
      effects.append(.prepare(slot))
    }
    return effects + fill()
  }

  /// The cards of `type` in preparation or ready, in the order dealt.
  private func ordinalsQueued(of type: String) -> [Int] {
    let slots = preparing.filter { $0.type == type } + ready.map(\.slot).filter { $0.type == type }
    return slots.sorted { $0.id < $1.id }.map(\.ordinal)
  }

  private mutating func leavePreparation(_ slot: FeedSlot) -> Bool {
    guard let i = preparing.firstIndex(where: { $0.id == slot.id }) else { return false }
    preparing.remove(at: i)
    return true
  }
}
