import CardPreparation
import CardText
import FeedCore
import Synchronization

/// The running feed: the ready queue of a pure `FeedEngine`, filled by a pipeline of actors on
/// the cooperative pool.
///
/// Keeps `lookahead` cards in preparation or ready. Each preparation is a task through two
/// actors, `FetchStage` (the card from its source, a fetch shared by the slots that dealt the
/// same card) and `LayoutStage` (sanitised, laid out and cut to the terminal's text area),
/// and pushes its card into the ready queue the moment it is done. The queue is the engine
/// behind a mutex held only for pure state changes: every method here is synchronous and
/// returns at once, so the UI thread takes a card between two `poll(2)`s without awaiting;
/// `next()` is the waiting form for `ctfo next`.
///
///     let feed = Feed(source: deck, catalog: types, enabled: ["fact"], seed: 1,
///                     area: TextArea(width: 60, height: 12)) { wakePipe.wake() }
///     feed.start()
///     if case .card(let card) = await feed.next() { print(card.layout.lines) }
public final class Feed: Sendable {
  struct Prepared: Sendable {
    var card: PreparedCard
    var area: TextArea
  }

  struct State: ~Copyable {
    var engine: FeedEngine<Prepared>
    /// Cards of live sources, and the changes they made to the source's cards.
    var live = LiveCards()
    /// Types the settings turn off (a live source's new type starts on unless listed).
    var disabled: Set<String>
    /// Type metadata by name: the catalog's, then live sources'.
    var metadata: [String: CardType]
    /// What live changes the app has not yet been told of.
    var news = LiveNews()
    /// Live sources still open (`follow`): while one is, an empty feed is waiting for cards,
    /// not unavailable.
    var openSources = 0

    /// Nothing can be prepared, and no live source can bring more.
    var isUnavailable: Bool { engine.isUnavailable && openSources == 0 }
    var tasks: [UInt64: Task<Void, Never>] = [:]
    var waiters: [CheckedContinuation<FeedItem, Never>] = []
    var stopped = false
    /// How many times each type was renewed after every card of it failed: the fetch stage
    /// asks again, once, for a card that failed before.
    var renewals: [String: Int] = [:]
    /// The preparations the last `takeReady()` called for, waiting for `refill()`.
    var refillDue: [FeedEffect] = []
  }

  private let inDealOrder: Bool
  let onReady: @Sendable () -> Void
  /// The pipeline's stages: the fetches under way, and the layout for the text area.
  private let fetchStage: FetchStage
  private let layoutStage: LayoutStage
  /// Lays a card out on the UI thread when it was taken before the lay-out stage caught up
  /// with a resize.
  private let layout: @Sendable (Card, TextArea) -> PreparedCard
  let state: Mutex<State>
  /// Each type's card count in `source` at launch: the ordinals below are the source's own, and
  /// a card the source numbers higher (added since) is a live card of the feed's.
  let baseCounts: [String: Int]
  /// Fetches the body of a live card sent without it (the server's), like `source` does.
  let fetchBody: (@Sendable (String) async throws -> String)?
  /// Held while a live change applies: changes from several sources apply one at a time.
  let applying = Mutex<Void>(())
  /// The text area of now and the number of resizes so far; apart from `state` so that a
  /// take reads it without contending for the engine.
  private let area: Mutex<(area: TextArea, resizes: UInt64)>

  /// - Parameters:
  ///   - catalog: the types offered and their card counts (from the source).
  ///   - enabled: the types the settings enable.
  ///   - seed: seeds every random choice; the same seed deals the same feed from the same
  ///     progress.
  ///   - progress: where the home's rounds stood at the end of the last run.
  ///   - area: the text area cards are laid out for.
  ///   - inDealOrder: hand cards out in the order they were dealt rather than the order they
  ///     became ready, so the same seed prints the same cards (`ctfo next`).
  ///   - onReady: called from a background thread when a card becomes ready or the feed
  ///     becomes unavailable (the app writes its wake-up pipe here).
  ///   - layout: lays a sanitised card out for an area (`Preparation.laidOut`; a test counts
  ///     the calls).
  public init(
    source: any CardSource, catalog: [TypeCount], enabled: Set<String>, lookahead: Int = 5,
    seed: UInt64, resuming progress: RoundProgress<Int> = RoundProgress(), area: TextArea,
    inDealOrder: Bool = false, onReady: @escaping @Sendable () -> Void = {},
    layout: @escaping @Sendable (Card, TextArea) -> PreparedCard = {
      Preparation.laidOut($0, for: $1)
    },
    fetchBody: (@Sendable (String) async throws -> String)? = nil
  ) {
    fetchStage = FetchStage(source: source)
    layoutStage = LayoutStage(area: area, layout: layout)
    self.fetchBody = fetchBody
    baseCounts = Dictionary(catalog.map { ($0.type.name, $0.cards) }) { a, _ in a }
    self.layout = layout
    self.inDealOrder = inDealOrder
    self.onReady = onReady
    let metadata = Dictionary(catalog.map { ($0.type.name, $0.type) }) { a, _ in a }
    let engine = FeedEngine<Prepared>(
      types: catalog.map { (name: $0.type.name, cards: $0.cards) }, enabled: enabled,
      lookahead: lookahead, seed: seed, resuming: progress)
    state = Mutex(
      State(
        engine: engine, disabled: Set(metadata.keys).subtracting(enabled), metadata: metadata))
    self.area = Mutex((area, 0))
  }

  /// Starts preparing the first cards.
  public func start() { perform(state.withLock { $0.engine.fill() }) }

  /// The first ready card; `.loading` when none is ready yet (show the placeholder, then call
  /// again after `onReady`); `.unavailable` when nothing can be prepared. Showing a card starts
  /// the preparation of one more.
  public func takeNext() -> FeedItem {
    let area = self.area.withLock { $0.area }
    let (item, effects) = state.withLock { take(&$0, area: area) }
    perform(effects)
    return item
  }

  /// The first ready card, as `takeNext()` gives it, starting nothing: the preparation of the
  /// card that replaces it waits for `refill()`, which the app calls once the frame showing
  /// the card is out, so that the frame answering a key waits for no task to start. A refill
  /// still due from an earlier take (a runner that drew no frame) starts first.
  public func takeReady() -> FeedItem {
    let area = self.area.withLock { $0.area }
    let (item, due) = state.withLock { s in
      let due = Self.stillDue(&s)
      let (item, effects) = take(&s, area: area)
      // Nothing taken (the placeholder shows): what the queue needs starts now.
      guard case .card = item else { return (item, due + effects) }
      s.refillDue = effects
      return (item, due)
    }
    perform(due)
    return item
  }

  /// Starts the preparations the last `takeReady()` left for later (none when a change of
  /// settings cancelled them meanwhile).
  public func refill() {
    perform(state.withLock { Self.stillDue(&$0) })
  }

  /// The refill due, taken: the slots the engine still prepares.
  private static func stillDue(_ s: inout State) -> [FeedEffect] {
    guard !s.refillDue.isEmpty else { return [] }
    defer { s.refillDue = [] }
    return s.refillDue.filter { effect in
      guard case .prepare(let slot) = effect else { return true }
      return s.engine.isPreparing(slot)
    }
  }

  /// The next card, waiting for one to be ready if none is.
  public func next() async -> FeedItem {
    let item = takeNext()
    guard item == .loading else { return item }
    let area = self.area.withLock { $0.area }
    return await withCheckedContinuation { waiter in
      let (now, effects): (FeedItem?, [FeedEffect]) = state.withLock { s in
        if !s.engine.hasNext(inDealOrder: inDealOrder), !s.isUnavailable, !s.stopped {
          s.waiters.append(waiter)
          return (nil, [])
        }
        let (item, effects) = take(&s, area: area)
        return (item, effects)
      }
      perform(effects)
      if let now { waiter.resume(returning: now) }
    }
  }

  /// Applies the settings (feed-logic.md, "Card Settings"): cards of types taken out leave
  /// both queues, their preparations are cancelled, and the queue refills; turning a type
  /// (back) on throws both queues away and starts over.
  public func setEnabled(_ types: Set<String>) {
    let (handoffs, effects) = state.withLock { s in
      let effects = s.engine.setEnabled(types)
      s.disabled = Set(s.engine.types).subtracting(types)
      return handOffToWaiters(&s, effects: effects)
    }
    finish(handoffs, effects)
  }

  /// Starts a new round for each type every card of which failed, now that its source is back
  /// (a pull succeeded, a deck changed): the feed that had nothing to show goes on.
  public func renewFailedTypes() {
    guard hasFailedTypes else { return }
    let (handoffs, effects) = state.withLock { s in
      // The fetch stage asks the source again, once, for their failed cards.
      for type in s.engine.standings.filter(\.failing).map(\.name) {
        s.renewals[type, default: 0] += 1
      }
      return handOffToWaiters(&s, effects: s.engine.renewFailedTypes())
    }
    finish(handoffs, effects)
  }

  /// Whether a type has failed every card (`renewFailedTypes` would start it again).
  public var hasFailedTypes: Bool {
    state.withLock { $0.engine.standings.contains(where: \.failing) }
  }

  /// Sets the text area for new layouts and has the lay-out stage lay the ready cards out again
  /// in the background, from the data already fetched. A card taken before that finishes is
  /// laid out on the spot.
  public func resize(to area: TextArea) {
    let number = self.area.withLock { now in
      now = (area, now.resizes + 1)
      return now.resizes
    }
    let stale: [(FeedSlot, Card)] = state.withLock { s in
      s.engine.ready.filter { $0.payload.area != area }.map {
        ($0.slot, $0.payload.card.card)
      }
    }
    Task {
      guard
        let redone = await layoutStage.resize(to: area, number: number, relaying: stale.map(\.1)),
        self.area.withLock({ $0.resizes }) == number
      else { return }
      state.withLock { s in
        for ((slot, _), card) in zip(stale, redone) {
          s.engine.replaceReady(slot, with: Prepared(card: card, area: area))
        }
      }
    }
  }

  /// Applies server scores to unseen cards: before `start()`, the scores the store holds. A
  /// score for a card the source numbered after launch goes to the live card of its id.
  public func updateScores(_ scores: [PoolScore]) {
    state.withLock { s in
      for score in scores {
        if score.ordinal < baseCounts[score.type] ?? 0 {
          s.engine.updateScore(type: score.type, ordinal: score.ordinal, to: score.score)
        } else if let id = score.id, let key = s.live.keys[id] {
          s.engine.updateScore(type: key.type, ordinal: key.ordinal, to: score.score)
        }
      }
    }
  }

  /// Applies a server score to an unseen card (kept only if newer; ignored once seen).
  public func updateScore(type: String, ordinal: Int, to score: ScoredPool.Score) {
    state.withLock { _ = $0.engine.updateScore(type: type, ordinal: ordinal, to: score) }
  }

  /// Every type with its label, card count, setting and failing flag.
  public var statuses: [TypeStatus] {
    state.withLock { s in
      s.engine.standings.map {
        TypeStatus(
          type: s.metadata[$0.name] ?? CardType(name: $0.name), cards: $0.cards,
          enabled: $0.enabled, failing: $0.failing)
      }
    }
  }

  /// Cancels every preparation; waiting callers get `.unavailable`.
  public func stop() {
    let (tasks, waiters) = state.withLock { s in
      s.stopped = true
      defer {
        s.tasks = [:]
        s.waiters = []
      }
      return (Array(s.tasks.values), s.waiters)
    }
    for task in tasks { task.cancel() }
    for waiter in waiters { waiter.resume(returning: .unavailable("The feed was stopped.")) }
  }

  func take(_ s: inout State, area: TextArea) -> (FeedItem, [FeedEffect]) {
    let (payload, effects) = s.engine.takeNext(inDealOrder: inDealOrder)
    if let payload {
      let card = payload.area == area ? payload.card : layout(payload.card.card, area)
      return (.card(card), effects)
    }
    return (s.isUnavailable ? .unavailable(FeedUnavailable().description) : .loading, effects)
  }

  func perform(_ effects: [FeedEffect]) {
    for effect in effects {
      switch effect {
      case .prepare(let slot):
        let task = Task { await self.prepare(slot) }
        let kept = state.withLock { s in
          if s.engine.isPreparing(slot), !s.stopped { s.tasks[slot.id] = task }
          return !s.stopped
        }
        if !kept { task.cancel() }
      case .cancel(let slot):
        state.withLock { $0.tasks.removeValue(forKey: slot.id) }?.cancel()
      }
    }
  }

  /// One preparation, through the stages: fetched, then laid out, then pushed into the ready
  /// queue (or replaced, when it failed).
  private func prepare(_ slot: FeedSlot) async {
    let prepared: Prepared?
    do {
      let fetched = try await fetch(slot)
      try Task.checkCancellation()
      let (card, area) = await layoutStage.prepare(fetched)
      prepared = Prepared(card: card, area: area)
    } catch {
      prepared = nil
    }
    push(slot, prepared)
  }

  /// Pushes a finished preparation into the ready queue, inside the lock, and wakes the app.
  private func push(_ slot: FeedSlot, _ prepared: Prepared?) {
    let area = self.area.withLock { $0.area }
    let (handoffs, effects) = state.withLock { s in
      s.tasks[slot.id] = nil
      // A stopped feed prepares nothing more: a cancelled fetch is not a failure to replace.
      guard !s.stopped else { return ([Handoff](), [FeedEffect]()) }
      var effects: [FeedEffect] = []
      if let prepared { s.engine.prepared(slot, prepared) } else { effects = s.engine.failed(slot) }
      return handOffToWaiters(&s, effects: effects, area: area)
    }
    finish(handoffs, effects)
  }

  /// The slot's card: a live source's, or the fetch stage's.
  private func fetch(_ slot: FeedSlot) async throws -> Card {
    let key = CardKey(type: slot.type, ordinal: slot.ordinal)
    let (live, renewal) = state.withLock { ($0.live.cards[key], $0.renewals[key.type] ?? 0) }
    if var live {
      if live.body.isEmpty, let fetchBody { live.body = try await fetchBody(live.id) }
      guard !live.body.isEmpty else { throw MissingBody(id: live.id) }
      return live
    }
    return try await fetchStage.card(key, renewal: renewal)
  }

  typealias Handoff = (waiter: CheckedContinuation<FeedItem, Never>, item: FeedItem)

  /// Gives ready cards (or the news that there will be none) to callers waiting in `next()`,
  /// inside the same critical section as the change that made them ready.
  func handOffToWaiters(
    _ s: inout State, effects: [FeedEffect], area: TextArea? = nil
  ) -> ([Handoff], [FeedEffect]) {
    var handoffs: [Handoff] = []
    var effects = effects
    guard !s.waiters.isEmpty else { return (handoffs, effects) }
    let area = area ?? self.area.withLock { $0.area }
    while !s.waiters.isEmpty, s.engine.hasNext(inDealOrder: inDealOrder) || s.isUnavailable {
      let (item, more) = take(&s, area: area)
      effects += more
      handoffs.append((s.waiters.removeFirst(), item))
    }
    return (handoffs, effects)
  }

  /// Outside the lock: starts and cancels preparations, resumes waiters, tells the app.
  /// `wake: false` leaves `onReady` to the preparations started (each calls it as it ends).
  func finish(_ handoffs: [Handoff], _ effects: [FeedEffect], wake: Bool = true) {
    perform(effects)
    for handoff in handoffs { handoff.waiter.resume(returning: handoff.item) }
    if wake { onReady() }
  }
}

/// A live card sent without its body, with no way to fetch it: skipped.
public struct MissingBody: Error, Hashable {
  public var id: String
}
