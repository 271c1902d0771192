@testable import FeedCore

/// Runs a `FeedEngine` as `FeedPipeline.Feed` would and checks feed-logic.md's invariants on
/// every step against a model of its own: which cards each type dealt in its current round and
/// which failed.
///
/// The payload of a ready card is its slot. Violations are collected with the seed and the step,
/// so a failing run can be replayed (`Referee(…, seed:)` with the seed printed).
struct Referee {
  private(set) var engine: FeedEngine<FeedSlot>
  let sizes: [String: Int]
  let seed: UInt64
  /// Slots whose preparation was started and not yet reported, oldest first.
  private(set) var pending: [FeedSlot] = []
  /// Every slot dealt, in deal order.
  private(set) var deals: [FeedSlot] = []
  private(set) var shown: [FeedSlot] = []
  private(set) var violations: [String] = []
  /// Slots whose preparation was cancelled; a late result for one must be ignored.
  private(set) var cancelled: [FeedSlot] = []
  private var step = 0
  /// type -> the cards dealt in its current round (the model of the pool).
  private var round: [String: Set<Int>] = [:]
  /// type -> how many rounds it started; slot -> the round it was dealt in. A card thrown back
  /// unshown returns to its type's round only if it was dealt in it.
  private var rounds: [String: Int] = [:]
  private var dealtInRound: [UInt64: Int] = [:]
  private var failedCards: [String: Set<Int>] = [:]
  private var maxIDBeforeRestart: UInt64?

  init(types: [(String, Int)], enabled: Set<String>? = nil, lookahead: Int, seed: UInt64) {
    engine = FeedEngine(
      types: types.map { (name: $0.0, cards: $0.1) }, enabled: enabled ?? Set(types.map(\.0)),
      lookahead: lookahead, seed: seed)
    sizes = Dictionary(uniqueKeysWithValues: types)
    self.seed = seed
    let effects = engine.fill()
    settle(effects)
  }

  /// Shows the next card (nil: the placeholder) as the app or `ctfo next` would.
  @discardableResult
  mutating func show(inDealOrder: Bool) -> FeedSlot? {
    // A ready card already shown in its round may wait: `FeedModelTests` checks when.
    let waiting = engine.hasNext(inDealOrder: inDealOrder)
    let (card, effects) = engine.takeNext(inDealOrder: inDealOrder)
    if (card != nil) != waiting { record("takeNext gave \(String(describing: card))") }
    if let card { shown.append(card) }
    settle(effects)
    return card
  }

  /// Shows the next card in deal order, completing the oldest preparations first.
  @discardableResult
  mutating func showInDealOrder() -> FeedSlot? {
    while !engine.hasNext(inDealOrder: true), !pending.isEmpty { complete(0) }
    return show(inDealOrder: true)
  }

  /// Reports the `index`th pending preparation as done.
  mutating func complete(_ index: Int) {
    let slot = pending.remove(at: index)
    engine.prepared(slot, slot)
    settle([])
  }

  /// Reports the `index`th pending preparation as failed.
  mutating func fail(_ index: Int) {
    let slot = pending.remove(at: index)
    failedCards[slot.type, default: []].insert(slot.ordinal)
    settle(engine.failed(slot))
  }

  /// Reports a result for a slot whose preparation was cancelled: it must be ignored.
  mutating func reportCancelled(_ slot: FeedSlot, failing: Bool) {
    if failing {
      let effects = engine.failed(slot)
      if !effects.isEmpty { record("a cancelled slot's failure dealt \(effects)") }
    } else {
      engine.prepared(slot, slot)
    }
    settle([])
  }

  mutating func setEnabled(_ types: Set<String>) {
    let before = queued
    let restarts = !types.subtracting(engine.enabled).isEmpty
    if restarts { maxIDBeforeRestart = (before.map(\.id).max() ?? 0) }
    let effects = engine.setEnabled(types)
    let after = Set(queued.map(\.id))
    for slot in before
    where !after.contains(slot.id) && dealtInRound[slot.id] == rounds[slot.type, default: 0] {
      round[slot.type]?.remove(slot.ordinal)
    }
    settle(effects)
    if restarts, let old = maxIDBeforeRestart, queued.contains(where: { $0.id <= old }) {
      record("a type turned back on left cards of the old queue in it")
    }
  }

  /// Replaces a ready card's payload with itself, as a resize lays it out again.
  mutating func relayOut(_ slot: FeedSlot) {
    if !engine.replaceReady(slot, with: slot) { record("ready slot \(slot.id) not replaced") }
    settle([])
  }

  mutating func updateScore(type: String, ordinal: Int, value: Double, timestamp: Double) {
    engine.updateScore(type: type, ordinal: ordinal, to: .init(value: value, timestamp: timestamp))
  }

  /// Every slot in preparation or ready.
  var queued: [FeedSlot] { engine.preparing + engine.ready.map(\.slot) }

  /// Deals `count` cards in deal order.
  mutating func showInDealOrder(count: Int) {
    for _ in 0..<count { showInDealOrder() }
  }

  private mutating func settle(_ effects: [FeedEffect]) {
    step += 1
    for effect in effects {
      switch effect {
      case .prepare(let slot):
        deal(slot)
        pending.append(slot)
      case .cancel(let slot):
        cancelled.append(slot)
        pending.removeAll { $0.id == slot.id }
      }
    }
    checkQueues()
  }

  /// Checks one deal against the model: a card of an enabled type that has not failed and was
  /// not dealt in the current round; a card still queued only when every card of the round
  /// left is queued too.
  private mutating func deal(_ slot: FeedSlot) {
    deals.append(slot)
    let (type, card, size) = (slot.type, slot.ordinal, sizes[slot.type]!)
    let failed = failedCards[type, default: []]
    if covered(type, failed) == size {
      round[type] = []
      rounds[type, default: 0] += 1
    }
    dealtInRound[slot.id] = rounds[type, default: 0]
    if !engine.enabled.contains(type) { record("dealt \(type)-\(card) of a disabled type") }
    if failed.contains(card) { record("dealt \(type)-\(card), which failed") }
    if round[type, default: []].contains(card) { record("dealt \(type)-\(card) twice in a round") }
    round[type, default: []].insert(card)
  }

  /// How many cards of the type the current round dealt or lost to failures.
  private func covered(_ type: String, _ failed: Set<Int>) -> Int {
    let dealt = round[type, default: []]
    return dealt.count + failed.count { !dealt.contains($0) }
  }

  /// The queues after a step: full whenever a card can be dealt, no card of a disabled type,
  /// no cancelled slot ready, every ready card the one its slot dealt.
  private mutating func checkQueues() {
    let count = engine.preparing.count + engine.ready.count
    if !engine.dealableTypes.isEmpty, count != engine.lookahead {
      record("\(count) cards queued, lookahead \(engine.lookahead)")
    }
    if let slot = queued.first(where: { !engine.enabled.contains($0.type) }) {
      record("\(slot.type)-\(slot.ordinal) of a disabled type is still queued")
    }
    if let entry = engine.ready.first(where: { r in cancelled.contains { $0.id == r.slot.id } }) {
      record("cancelled slot \(entry.slot.id) reached the ready queue")
    }
    if let entry = engine.ready.first(where: { $0.payload != $0.slot }) {
      record("slot \(entry.slot.id) holds another slot's card")
    }
  }

  private mutating func record(_ message: String) {
    violations.append("seed \(seed), step \(step): \(message)")
  }
}
