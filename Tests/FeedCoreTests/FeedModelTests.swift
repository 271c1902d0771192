import Testing

@testable import FeedCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// feed-logic.md as the oracle: random sequences of operations (preparations ending well or
/// failing, cards shown, types turned off and on, live edits of the deck, server scores (equal
/// ones too), a whole collection replaced, restarts of the process, a source that fails every
/// card and comes back) run against the real `FeedEngine` and checked, on every step, against
/// `FeedModel`, a small model of what the user sees:
///
/// - no card is shown twice in its type's round (a round ends the moment every card the type
///   can show was shown in it; a restart goes on with the home's round);
/// - rounds are not all alike: a type of three cards or more shows its rounds in more than one
///   order;
/// - the placeholder never shows while a ready card could be shown;
/// - the queues hold `lookahead` cards whenever an enabled type has a card that can be dealt,
///   so the feed never ends while one has; no card of a disabled type is queued or shown, no
///   failed card is dealt again or shown;
/// - a type every card of which failed comes back, in a new round, when its source does.
///
/// A failing sequence is shrunk (operations dropped while it still fails) and printed with its
/// seed. `CTFO_MODEL_RUNS=<n>` sets the number of sequences (`make fuzz-long` runs more);
/// `CTFO_MODEL_SEED=<seed>` replays one.
@Suite struct FeedModelTests {
  static let runs: [UInt64] = {
    if let seed = getenv("CTFO_MODEL_SEED").flatMap({ UInt64(String(cString: $0)) }) {
      return [seed]
    }
    let count = getenv("CTFO_MODEL_RUNS").flatMap { Int(String(cString: $0)) } ?? 1_500
    return Array(1...UInt64(max(count, 1)))
  }()

  @Test func randomSequencesKeepEveryRuleOfTheFeed() {
    var failures: [String] = []
    for seed in Self.runs {
      let sequence = FeedModel.Sequence(seed: seed)
      guard let violation = sequence.run(sequence.operations) else { continue }
      let shrunk = sequence.shrink(sequence.operations)
      let last = sequence.run(shrunk, trace: getenv("CTFO_MODEL_TRACE") != nil) ?? violation
      failures.append(
        "seed \(seed), \(sequence.setup): \(last)\n  operations (\(shrunk.count) of "
          + "\(sequence.operations.count)): \(shrunk.map(\.description).joined(separator: " "))")
      if failures.count >= 3 { break }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  /// The model catches what it claims to: an engine that shows a card twice in its round,
  /// that shows the placeholder with a card ready, or that stops dealing, fails it.
  @Test func theModelCatchesABrokenEngine() {
    var model = FeedModel(types: [("t", 3)], lookahead: 1, seed: 1)
    model.apply(.complete(0))
    model.apply(.show)
    model.checkShown(FeedSlot(id: 99, type: "t", ordinal: model.lastShownOrdinal!))
    #expect(model.violation?.contains("twice in its round") == true, "\(model.violation ?? "")")

    var stalled = FeedModel(types: [("t", 3)], lookahead: 2, seed: 1)
    stalled.apply(.complete(0))
    stalled.checkPlaceholder(ready: stalled.engine.ready.map(\.slot))
    #expect(stalled.violation?.contains("placeholder") == true, "\(stalled.violation ?? "")")
  }
}

/// The reference model of the feed the user sees, driving a `FeedEngine<FeedSlot>` (a ready
/// card's payload is its slot).
struct FeedModel {
  /// One operation; its numbers pick among what exists when it runs, so any subsequence of a
  /// sequence is a sequence too (shrinking drops operations).
  enum Operation: CustomStringConvertible, Sendable {
    case complete(UInt32)
    case fail(UInt32)
    case show
    case toggle(UInt32)
    case add(UInt32)
    case change(UInt32)
    case remove(UInt32)
    case replace
    case score(UInt32, UInt32)
    case equalScores(UInt32)
    case restart
    case outage(UInt32)
    case sourceBack

    var description: String {
      switch self {
      case .complete(let r): "complete(\(r))"
      case .fail(let r): "fail(\(r))"
      case .show: "show"
      case .toggle(let r): "toggle(\(r))"
      case .add(let r): "add(\(r))"
      case .change(let r): "change(\(r))"
      case .remove(let r): "remove(\(r))"
      case .replace: "replace"
      case .score(let r, let v): "score(\(r), \(v))"
      case .equalScores(let r): "equalScores(\(r))"
      case .restart: "restart"
      case .outage(let r): "outage(\(r))"
      case .sourceBack: "sourceBack"
      }
    }
  }

  /// A seeded sequence: its types, lookahead and operations.
  struct Sequence {
    let seed: UInt64
    let types: [(String, Int)]
    let lookahead: Int
    /// Cards are shown in deal order (`ctfo next`) rather than as they become ready (the app).
    let inDealOrder: Bool
    let operations: [Operation]

    init(seed: UInt64) {
      self.seed = seed
      var rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
      let sizes = [1, 2, 3, 3, 4, 5, 7, 12]
      types = (0..<Int.random(in: 1...3, using: &rng)).map {
        ("t\($0)", sizes.randomElement(using: &rng)!)
      }
      lookahead = [1, 2, 3, 5, 8].randomElement(using: &rng)!
      inDealOrder = Int.random(in: 0..<4, using: &rng) == 0
      operations = (0..<Int.random(in: 80...260, using: &rng)).map { _ in
        Self.randomOperation(using: &rng)
      }
    }

    var setup: String {
      "\(types), lookahead \(lookahead)\(inDealOrder ? ", in deal order" : "")"
    }

    static func randomOperation(using rng: inout SeededGenerator) -> Operation {
      let r = UInt32.random(in: 0...UInt32.max, using: &rng)
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<34: return .complete(r)
      case 34..<39: return .fail(r)
      case 39..<67: return .show
      case 67..<71: return .toggle(r)
      case 71..<75: return .add(r)
      case 75..<78: return .change(r)
      case 78..<81: return .remove(r)
      case 81..<83: return .replace
      case 83..<87: return .score(r, UInt32.random(in: 0..<4, using: &rng))
      case 87..<90: return .equalScores(r)
      case 90..<93: return .restart
      case 93..<96: return .outage(r)
      default: return .sourceBack
      }
    }

    /// Runs `operations` on a fresh model; the first violation, if any.
    func run(_ operations: [Operation], trace: Bool = false) -> String? {
      var model = FeedModel(
        types: types, lookahead: lookahead, seed: seed, inDealOrder: inDealOrder)
      for operation in operations {
        model.apply(operation)
        if trace { print("\(operation) -> \(model.state)") }
        if model.violation != nil { break }
      }
      if model.violation == nil { model.checkRoundsDiffer() }
      return model.violation
    }

    /// Drops operations (halves, then smaller chunks, then one at a time) while the sequence
    /// still fails.
    func shrink(_ operations: [Operation]) -> [Operation] {
      var kept = operations
      var chunk = max(kept.count / 2, 1)
      while chunk >= 1 {
        var start = 0
        while start < kept.count {
          var shorter = kept
          shorter.removeSubrange(start..<min(start + chunk, kept.count))
          if run(shorter) != nil { kept = shorter } else { start += chunk }
        }
        if chunk == 1 { break }
        chunk /= 2
      }
      return kept
    }
  }

  private(set) var engine: FeedEngine<FeedSlot>
  let lookahead: Int
  let inDealOrder: Bool
  let seed: UInt64
  let typeNames: [String]
  private(set) var violation: String?
  private(set) var lastShownOrdinal: Int?
  private var pending: [FeedSlot] = []
  /// type -> ordinal -> the card's id (ids are never reused; ordinals are).
  private var ids: [String: [Int: Int]] = [:]
  /// Each type's ordinals so far (the engine's `count`), for a restart.
  private var ordinalSpace: [String: Int] = [:]
  private var nextID = 0
  private var failed: [String: Set<Int>] = [:]
  private var enabled: Set<String>
  /// type -> the cards shown in its current round, and in which order.
  private var round: [String: Set<Int>] = [:]
  private var roundOrder: [String: [Int]] = [:]
  /// type -> the orders of its complete rounds that nothing but shows touched.
  private var calmRounds: [String: [[Int]]] = [:]
  private var disturbed: Set<String> = []
  /// Types a server scored unequally: their rounds follow the scores, alike by design.
  private var scored: Set<String> = []
  private var time = 0.0
  private var restarts: UInt64 = 0

  init(types: [(String, Int)], lookahead: Int, seed: UInt64, inDealOrder: Bool = false) {
    typeNames = types.map(\.0)
    self.inDealOrder = inDealOrder
    self.lookahead = lookahead
    self.seed = seed
    enabled = Set(typeNames)
    engine = FeedEngine(
      types: types.map { (name: $0.0, cards: $0.1) }, enabled: enabled, lookahead: lookahead,
      seed: seed)
    for (type, size) in types {
      ordinalSpace[type] = size
      for ordinal in 0..<size { ids[type, default: [:]][ordinal] = newID() }
    }
    settle(engine.fill())
  }

  mutating func apply(_ operation: Operation) {
    switch operation {
    case .complete(let r):
      guard !pending.isEmpty else { return }
      let slot = pending.remove(at: Int(r) % pending.count)
      engine.prepared(slot, slot)
      settle([])
    case .fail(let r):
      guard !pending.isEmpty else { return }
      failPending(at: Int(r) % pending.count)
    case .show where inDealOrder:
      // `ctfo next` waits for the card dealt first: its preparation ends.
      while !engine.hasNext(inDealOrder: true),
        let first = pending.indices.min(by: { pending[$0].dealt < pending[$1].dealt })
      {
        let slot = pending.remove(at: first)
        engine.prepared(slot, slot)
      }
      show()
    case .show: show()
    case .toggle(let r):
      let type = typeNames[Int(r) % typeNames.count]
      let next = enabled.symmetricDifference([type])
      guard !next.isEmpty else { return }
      enabled = next
      disturbed.formUnion(typeNames)
      settle(engine.setEnabled(next))
    case .add(let r):
      let type = typeNames[Int(r) % typeNames.count]
      let (ordinal, effects) = engine.add(type: type)
      ids[type, default: [:]][ordinal] = newID()
      ordinalSpace[type] = max(ordinalSpace[type] ?? 0, ordinal + 1)
      disturbed.insert(type)
      settle(effects)
    case .change(let r):
      guard let (type, ordinal) = liveCard(r) else { return }
      settle(engine.update(type: type, ordinal: ordinal))
    case .remove(let r):
      guard let (type, ordinal) = liveCard(r) else { return }
      let effects = engine.remove(type: type, ordinal: ordinal)
      let id = ids[type]![ordinal]!
      ids[type]![ordinal] = nil
      round[type]?.remove(id)
      disturbed.insert(type)
      closeRoundIfComplete(type)
      settle(effects)
    case .replace:
      disturbed.formUnion(typeNames)
      settle(engine.replaceAll())
    case .score(let r, let value):
      guard let (type, ordinal) = liveCard(r) else { return }
      time += 1
      scored.insert(type)
      engine.updateScore(
        type: type, ordinal: ordinal, to: .init(value: Double(value) / 4, timestamp: time))
    case .equalScores(let r):
      let type = typeNames[Int(r) % typeNames.count]
      time += 1
      for ordinal in (ids[type] ?? [:]).keys.sorted() {
        engine.updateScore(type: type, ordinal: ordinal, to: .init(value: 0.5, timestamp: time))
      }
    case .restart: restart()
    case .outage(let r):
      let type = typeNames[Int(r) % typeNames.count]
      while let i = pending.firstIndex(where: { $0.type == type }) { failPending(at: i) }
    case .sourceBack:
      for type in typeNames where !live(type).isEmpty && available(type).isEmpty {
        failed[type] = []
        round[type] = []
        roundOrder[type] = []
        disturbed.insert(type)
      }
      settle(engine.renewFailedTypes())
    }
  }

  /// The queues, the rounds and the ids, for a trace.
  var state: String {
    let queued = (engine.preparing + engine.ready.map(\.slot)).sorted { $0.dealt < $1.dealt }
    return "queued \(queued.map { "\($0.type)#\(ids[$0.type]?[$0.ordinal] ?? -1)" }), "
      + "rounds \(roundOrder.filter { !$0.value.isEmpty }), enabled \(enabled.sorted()), "
      + "ids \(ids.mapValues { $0.sorted { $0.key < $1.key }.map(\.value) })"
  }

  // MARK: The rules

  /// Checks a card shown against its type's round, and records it.
  mutating func checkShown(_ slot: FeedSlot) {
    let type = slot.type
    lastShownOrdinal = slot.ordinal
    guard let id = ids[type]?[slot.ordinal] else {
      return record("\(type)#\(slot.ordinal), a removed card, was shown")
    }
    if !enabled.contains(type) { return record("\(type) is off but \(type)#\(id) was shown") }
    if failed[type, default: []].contains(id) { record("\(type)#\(id) failed but was shown") }
    if round[type, default: []].contains(id) {
      return record(
        "\(type)#\(id) was shown twice in its round: \(roundOrder[type, default: []]) then \(id)"
          + " (cards \(available(type).sorted()))")
    }
    round[type, default: []].insert(id)
    roundOrder[type, default: []].append(id)
    closeRoundIfComplete(type)
  }

  /// A round ends the moment it has shown every card the type can show (after a show, a
  /// failure, a removal, at a restart): a card added after that belongs to the next round.
  private mutating func closeRoundIfComplete(_ type: String) {
    let seen = round[type, default: []]
    if !seen.isEmpty, available(type).isSubset(of: seen) { closeRound(type) }
  }

  /// The placeholder came: no ready card may be one its round can show.
  mutating func checkPlaceholder(ready: [FeedSlot]) {
    for slot in ready {
      guard let id = ids[slot.type]?[slot.ordinal], enabled.contains(slot.type) else { continue }
      let seen = round[slot.type, default: []]
      if !seen.contains(id) {
        return record("the placeholder showed while \(slot.type)#\(id) was ready")
      }
    }
  }

  /// A type of three cards or more whose calm rounds all came in one order breaks "randomly
  /// choose a card".
  mutating func checkRoundsDiffer() {
    for (type, orders) in calmRounds where orders.count >= 12 && Set(orders).count == 1 {
      record("\(type) showed \(orders.count) rounds all in the order \(orders[0])")
    }
  }

  private mutating func checkQueues() {
    let queued = engine.preparing + engine.ready.map(\.slot)
    let dealable = typeNames.contains { enabled.contains($0) && !available($0).isEmpty }
    if dealable, queued.count != lookahead {
      record("\(queued.count) cards queued while a card can be dealt (lookahead \(lookahead))")
    }
    if let slot = queued.first(where: { !enabled.contains($0.type) }) {
      record("\(slot.type)#\(slot.ordinal) of a type turned off is queued")
    }
    if Set(engine.preparing.map(\.id)) != Set(pending.map(\.id)) {
      record("the engine prepares \(engine.preparing.map(\.id)), the runner \(pending.map(\.id))")
    }
  }

  // MARK: Steps

  private mutating func show() {
    let ready = engine.ready.map(\.slot)
    let (card, effects) = engine.takeNext(inDealOrder: inDealOrder)
    if let card {
      checkShown(card)
    } else if !inDealOrder {
      checkPlaceholder(ready: ready)
    }
    settle(effects)
  }

  private mutating func failPending(at index: Int) {
    let slot = pending.remove(at: index)
    if let id = ids[slot.type]?[slot.ordinal] {
      failed[slot.type, default: []].insert(id)
      disturbed.insert(slot.type)
      closeRoundIfComplete(slot.type)
    }
    settle(engine.failed(slot))
  }

  /// A new process on the same home: the rounds go on from what was shown (as the store's
  /// `RoundProgress` gives them), failures are forgotten, removed cards stay removed.
  private mutating func restart() {
    restarts += 1
    failed = [:]
    var seen: [String: Set<Int>] = [:]
    for type in typeNames {
      closeRoundIfComplete(type)
      let shownIDs = round[type, default: []]
      seen[type] = Set((ids[type] ?? [:]).filter { shownIDs.contains($0.value) }.keys)
    }
    engine = FeedEngine(
      types: typeNames.map { (name: $0, cards: ordinalSpace[$0] ?? 0) }, enabled: enabled,
      lookahead: lookahead, seed: seed &+ restarts &* 1_000_003,
      resuming: RoundProgress(seen: seen))
    pending = []
    disturbed.formUnion(typeNames)
    var effects: [FeedEffect] = []
    for type in typeNames {
      for ordinal in 0..<(ordinalSpace[type] ?? 0) where ids[type]?[ordinal] == nil {
        effects += engine.remove(type: type, ordinal: ordinal)
      }
    }
    effects += engine.fill()
    var started: [FeedSlot] = []
    for effect in effects {
      switch effect {
      case .prepare(let slot): started.append(slot)
      case .cancel(let slot): started.removeAll { $0.id == slot.id }
      }
    }
    settle(started.map(FeedEffect.prepare))
  }

  private mutating func settle(_ effects: [FeedEffect]) {
    for effect in effects {
      switch effect {
      case .prepare(let slot):
        if let id = ids[slot.type]?[slot.ordinal], failed[slot.type, default: []].contains(id) {
          record("\(slot.type)#\(id) was dealt again after it failed")
        }
        pending.append(slot)
      case .cancel(let slot): forget(slot)
      }
    }
    checkQueues()
  }

  private mutating func forget(_ slot: FeedSlot) { pending.removeAll { $0.id == slot.id } }

  private mutating func closeRound(_ type: String) {
    if !disturbed.contains(type), !scored.contains(type), available(type).count >= 3 {
      calmRounds[type, default: []].append(roundOrder[type, default: []])
    }
    disturbed.remove(type)
    round[type] = []
    roundOrder[type] = []
  }

  private func live(_ type: String) -> Set<Int> { Set((ids[type] ?? [:]).values) }

  /// The cards of the type that can be shown: live, not failed.
  private func available(_ type: String) -> Set<Int> {
    live(type).subtracting(failed[type, default: []])
  }

  /// A live card picked by `r`, of any type.
  private func liveCard(_ r: UInt32) -> (String, Int)? {
    let cards = typeNames.flatMap { type in (ids[type] ?? [:]).keys.sorted().map { (type, $0) } }
    return cards.isEmpty ? nil : cards[Int(r) % cards.count]
  }

  private mutating func newID() -> Int {
    nextID += 1
    return nextID
  }

  private mutating func record(_ message: String) {
    if violation == nil { violation = message }
  }
}
