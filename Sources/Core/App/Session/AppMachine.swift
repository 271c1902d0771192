import CardPreparation
import CardText
import FeedCore

/// The app's one state machine (bubbletea's `Update(msg) -> (Model, Cmd)`): the screens
/// (`AppState`), the session (`Session`) and the analytics it keeps (which card has the
/// focus, whether the history is open), with the reactions each write makes final, waiting
/// for it to commit.
///
/// Pure: an `Action` and the time come in, `Effect`s come out, and the runner performs each
/// once (`AppServices.perform`), its answer coming back as an `Action`. The screens' requests
/// on the session (a swipe, the next card, an undo) are done here; the runner never sees
/// them. A swipe is a key in and the next card on screen (taken from the ready queue on the
/// way), then, once that frame is drawn, its write and the refill of the ready queue out; the
/// writer's report changes nothing on screen but, when another process wrote rows meanwhile,
/// the card's number.
///
///     var machine = AppMachine(screen: AppState(width: 80, height: 24), session: session)
///     machine.start(now: t)                          // [.loadTypes, ..., .takeFromFeed]
///     machine.reduce(.fed(.card(card)), now: t)      // the card shows, as #42 (row 41)
///     machine.reduce(.frameDrawn, now: t)            // [.write(Session.Write(...)), .refill]
///     machine.reduce(.written([.committed(1, indices: [41])]), now: t)  // its row is in
public struct AppMachine: Sendable {
  /// What comes in: the screens' actions, and the answers to the machine's own effects.
  public enum Action: Sendable, Hashable {
    /// A key, a terminal event, or the answer to an effect the screens asked for.
    case app(AppAction)
    /// The answer to `.takeFromFeed`: what the feed dealt.
    case fed(FeedItem)
    /// The answer to `.findCard`: the card laid out for the screen, nil when no source holds
    /// it now.
    case found(PreparedCard?, for: CardWanted)
    /// The answer to `.askEnabledTypes`: the types enabled now, and the change asked for.
    case enabledTypes(Set<String>, type: String, enabled: Bool, confirmed: Bool)
    /// The state writer's reports since the last ones, in order (on every wake-up).
    case written([WriterReport])
    /// A frame is on screen: the moment to hand the writes over and refill the ready queue.
    case frameDrawn
    /// Live sources changed cards (the cards the session holds laid out for the screen).
    case live(LiveChanges)
    /// A pull from the server ended (its line), or the count of analytics events waiting for
    /// a failing sink changed; nil for what did not.
    case serverNews(pulled: ServerLine?, queuedEvents: Int?)
    /// The state database changed (this app or another process wrote it): the types it holds
    /// disabled, every known type, and the types the feed deals now.
    case storedSettings(disabled: Set<String>, types: Set<String>, enabledNow: Set<String>)
    /// The app quits: what is held is written with the cards to show first next time.
    case closing
    /// The answer to `.finishWrites`: the changes that could not be saved, and the writer's
    /// last reports.
    case writesFinished(unsaved: [UInt64], reports: [WriterReport])
  }

  /// Why a card is looked up by id.
  public enum CardWanted: Sendable, Hashable {
    /// `u`: the newest swipe's card comes back.
    case undo
    /// `b` on a history card: it is dealt after the card on screen.
    case bringBack
    /// Enter on a history card: its whole view opens.
    case open
  }

  /// What the runner does for the machine, each performed once; those that answer say with
  /// which action.
  public enum Effect: Sendable, Hashable {
    // The feed.
    /// Take a card from the ready queue; answer `.fed`. It does not wait, and starts nothing.
    case takeFromFeed
    /// Start preparing the cards that replace those taken: after the frame that shows them.
    case refill
    /// Find a card by id, laid out for the screen; answer `.found`.
    case findCard(id: String, for: CardWanted)
    /// Answer `.app(.typesLoaded)`.
    case loadTypes
    /// Answer `.app(.settingsLoaded)`.
    case loadSettings
    /// Answer `.enabledTypes` with the types enabled now.
    case askEnabledTypes(type: String, enabled: Bool, confirmed: Bool)
    /// The feed deals these types now; answer `.app(.settingChanged(.applied(statuses)))`.
    case enableTypes(Set<String>)
    /// The body text area changed: the feed lays ready cards out again.
    case resizeTextArea(TextArea)
    // The state database.
    /// Give the change to the state writer (it numbers changes in this order).
    case write(Session.Write)
    /// The writer failed: it holds the change; tell it to try again in a while.
    case retryWrites
    /// Answer `.app(.historyLoaded)` with at most `limit` entries (see `AppEffect`), once every
    /// write given so far is in.
    case loadHistory(limit: Int, search: String? = nil, filter: ReactionFilter = .all)
    /// Answer `.app(.statsLoaded)`, once every write given so far is in.
    case loadStats
    /// Quitting: the feed stops and the writer writes what it holds; answer `.writesFinished`.
    case finishWrites
    // Hooks, analytics, the server.
    /// A reaction is stored for good: run the reaction hook on its card.
    case runHook(cardID: String, reaction: Reaction, time: Double)
    /// Events were committed to the outbox: the analytics sinks may send them.
    case deliverAnalytics
    /// Pull from the server now (in the background; its end comes with the news).
    case pull
    /// The notification was read: it does not show again.
    case dismissNotice(id: String)
    /// Quitting: the server link stops.
    case stopLink
    /// Quitting, the last reports in: hooks and analytics get a moment to finish; `unsaved`
    /// changes are reported with `saveProblem`.
    case finish(unsaved: [UInt64], saveProblem: String?)
    // The terminal.
    /// Put `text` on the terminal's clipboard (OSC 52).
    case copy(String)
    /// Open a link in the user's browser; answer `.app(.urlOpened)`.
    case openURL(String)
    /// Restore the terminal and end the loop (which then sends `.closing`).
    case quit
  }

  /// The card on screen and since when (seconds), for its `Focus` event.
  struct Focus: Sendable, Hashable {
    var id: String
    var type: String
    var since: Double
  }

  /// A reaction a write makes final, for the hook once the write commits.
  public struct FinalReaction: Sendable, Hashable {
    public var cardID: String
    public var reaction: Reaction
    public var time: Double
  }

  public private(set) var screen: AppState
  public private(set) var session: Session
  /// Analytics are on: events are recorded.
  public let analytics: Bool
  /// A reaction hook is set: the reactions each write makes final wait for its commit.
  public let hooks: Bool
  private var focus: Focus?
  /// The history is open: opening it again (a search, a page) is not a new "HistoryOpened".
  private var inHistory = false
  /// Undos still to run of a `u` on a history card, one after the other.
  private var undosLeft = 0
  /// The card `b` brought back, dealt after the card on screen.
  private var broughtBack: PreparedCard?
  /// The reactions made final by each write not yet committed, by the write's sequence.
  public private(set) var finalAfterWrite: [UInt64: [FinalReaction]] = [:]
  /// The app quits: the screens take no more actions.
  private var closing = false
  /// A card was taken from the ready queue since the last frame: its replacement is prepared
  /// once the frame that shows it is out (`.refill`), so the key's frame waits for nothing.
  private var refillDue = false
  /// The types the state database held disabled at the last look, to tell another process's
  /// setting (`ctfo disable`) from this app's own.
  private var storedDisabled: Set<String>?

  /// A machine over `screen` and `session`, the state database holding `disabledTypes`;
  /// `AppStart` is recorded when analytics are on.
  public init(
    screen: AppState, session: Session, analytics: Bool = false, hooks: Bool = false,
    disabledTypes: Set<String>? = nil, now: Double = 0
  ) {
    self.screen = screen
    self.session = session
    self.analytics = analytics
    self.hooks = hooks
    storedDisabled = disabledTypes
    record([AnalyticsEvent("AppStart")], now: now)
  }

  /// The effects that start the app: the hook on the reactions the launch made final
  /// (`launched`, already written), then the screens' start.
  public mutating func start(launched: [UndoEffect] = [], now: Double) -> [Effect] {
    let hooked = hooks ? Self.finals(in: launched, time: now).map(Self.hook) : []
    return hooked + perform(screen.start(), now: now)
  }

  /// Applies an action; returns the effects for the runner, in order.
  public mutating func reduce(_ action: Action, now: Double) -> [Effect] {
    switch action {
    case .app(let action):
      return reduceScreen(action, now: now)
    case .fed(let item):
      // A card taken from the ready queue is replaced once the frame showing it is out.
      if case .card = item { refillDue = true }
      return deal(session.next(now: now) { item }, now: now)
    case .found(let card, .undo):
      return undo(card, now: now)
    case .found(let card, .bringBack):
      broughtBack = card ?? broughtBack
      return reduceScreen(.broughtBack(card.map { $0.card.title ?? $0.card.id }), now: now)
    case .found(let card, .open):
      return reduceScreen(.cardOpened(card), now: now)
    case .enabledTypes(let enabledNow, let type, let enabled, let confirmed):
      let decision = session.setEnabled(
        type, enabled, confirmed: confirmed, enabledNow: enabledNow, now: now)
      switch decision {
      case .refused(let reason): return reduceScreen(.settingChanged(.refused(reason)), now: now)
      case .needsConfirmation(let question):
        return reduceScreen(.settingChanged(.needsConfirmation(question)), now: now)
      case .apply(let types, _): return [.enableTypes(types)]
      }
    case .written(let reports):
      return written(reports, now: now)
    case .frameDrawn:
      // The frame is out: the writes go to the writer, the ready queue refills, and the
      // screen learns its card was seen (keys typed ahead for it act now).
      let refill: [Effect] = refillDue ? [.refill] : []
      refillDue = false
      return handOver(now: now) + refill + reduceScreen(.drawn, now: now)
    case .live(let news):
      session.remove(ids: news.removed)
      let byID = Dictionary(news.updated.map { ($0.card.id, $0) }) { _, last in last }
      session.update(news.updated.map(\.card)) { byID[$0.id]! }
      if let stillThere = news.stillThere {
        session.sourceReplaced(now: now) { stillThere.contains($0) }
      }
      return reduceScreen(
        .liveChanged(
          LiveUpdate(updated: news.updated, statuses: news.statuses, message: news.message)),
        now: now)
    case .serverNews(let pulled, let queued):
      var line = screen.server
      if let pulled {
        line = ServerLine(
          offline: pulled.offline, notices: pulled.notices, queuedEvents: line.queuedEvents,
          userStatus: pulled.userStatus)
      }
      if let queued { line.queuedEvents = queued }
      return reduceScreen(.serverChanged(line), now: now)
    case .storedSettings(let disabled, let types, let enabledNow):
      return storedSettings(disabled: disabled, types: types, enabledNow: enabledNow)
    case .closing:
      closing = true
      let quitting = analytics ? endFocus(now: now) + [AnalyticsEvent("AppQuit")] : []
      session.close(now: now, events: quitting)
      return [.stopLink] + handOver(now: now) + [.finishWrites]
    case .writesFinished(let unsaved, let reports):
      // The hooks run on what the last writes made final, then everything gets its moment.
      return written(reports, now: now)
        + [.finish(unsaved: unsaved, saveProblem: session.saveProblem)]
    }
  }

  /// Reduces a screen action and does the work its effects ask for.
  private mutating func reduceScreen(_ action: AppAction, now: Double) -> [Effect] {
    guard !closing else { return [] }
    let wasOpen = if case .fullCard = screen.mode { true } else { false }
    let effects = screen.reduce(action)
    // A card's whole view opened, from the feed (a key, a click) or from the history.
    if !wasOpen, case .fullCard(let view) = screen.mode {
      let card = view.card.card
      record(
        [
          AnalyticsEvent(
            "CardOpened", ["card_id": .string(card.id), "card_type": .string(card.type)])
        ], now: now)
    }
    return perform(effects, now: now)
  }

  /// The screens' requests in order: those on the session are done here, each of the others
  /// is one effect for the runner.
  private mutating func perform(_ effects: [AppEffect], now: Double) -> [Effect] {
    var out: [Effect] = []
    for effect in effects {
      switch effect {
      case .takeNext:
        inHistory = false
        // The feed is asked only when the session has no card of its own to show, nor one
        // that `b` brought back.
        if !session.dealsWithoutFeed, let card = broughtBack {
          broughtBack = nil
          out += deal(session.next(now: now) { .card(card) }, now: now)
        } else {
          out +=
            session.dealsWithoutFeed
            ? deal(session.next(now: now) { .loading }, now: now)
            : [.takeFromFeed]
        }
      case .swipe(let card, let direction):
        inHistory = false
        session.swipe(card, direction, events: endFocus(now: now))
      case .undo:
        guard let newest = session.window.tombstones.last else {
          out += undo(nil, now: now)
          continue
        }
        out.append(.findCard(id: newest.cardID, for: .undo))
      case .undoTo(let index):
        let tombstones = session.window.tombstones
        guard let place = tombstones.firstIndex(where: { $0.historyIndex == index }),
          let newest = tombstones.last
        else {
          let refusal = Self.notUndoable(limit: session.window.configuration.limit)
          out += reduceScreen(.undoRefused(refusal), now: now)
          continue
        }
        // One undo at a time, each as `u` does it; the next starts when this one is done.
        undosLeft = tombstones.count - place - 1
        out.append(.findCard(id: newest.cardID, for: .undo))
      case .bringBack(let id):
        out.append(.findCard(id: id, for: .bringBack))
      case .loadHistory(let limit, let search, let filter):
        if !inHistory {
          inHistory = true
          record([AnalyticsEvent("HistoryOpened")], now: now)
        }
        // The history is read once every write so far is in.
        out += handOver(now: now) + [.loadHistory(limit: limit, search: search, filter: filter)]
      case .loadStats:
        // So are the stats: the swipe just made counts.
        out += handOver(now: now) + [.loadStats]
      case .setEnabled(let type, let enabled, let confirmed):
        out.append(.askEnabledTypes(type: type, enabled: enabled, confirmed: confirmed))
      case .loadTypes: out.append(.loadTypes)
      case .loadSettings: out.append(.loadSettings)
      case .openCard(let id): out.append(.findCard(id: id, for: .open))
      case .resizeTextArea(let area): out.append(.resizeTextArea(area))
      case .openURL(let url): out.append(.openURL(url))
      case .copy(let text): out.append(.copy(text))
      case .pull: out.append(.pull)
      case .dismissNotice(let id): out.append(.dismissNotice(id: id))
      case .quit: out.append(.quit)
      }
    }
    return out
  }

  /// Adopts the settings another process wrote: cards of types turned off leave the queue,
  /// and the feed deals the types enabled now.
  private mutating func storedSettings(
    disabled: Set<String>, types: Set<String>, enabledNow: Set<String>
  ) -> [Effect] {
    let before = storedDisabled
    storedDisabled = disabled
    // Unchanged, or this app's own setting now written: nothing to adopt.
    guard let before, disabled != before else { return [] }
    let enabled = types.subtracting(disabled)
    guard !enabled.isEmpty, enabled != enabledNow else { return [] }
    session.adoptEnabled(enabled)
    return [.enableTypes(enabled)]
  }

  /// Shows what the session dealt; a card takes the focus.
  private mutating func deal(_ next: (item: FeedItem, position: Int), now: Double) -> [Effect] {
    if case .card(let card) = next.item, focus?.id != card.card.id {
      focus = Focus(id: card.card.id, type: card.card.type, since: now)
    }
    return reduceScreen(.dealt(next.item, position: next.position), now: now)
  }

  /// Undoes the newest swipe, its card `back` (nil when its source removed it: then the card
  /// on screen keeps its focus).
  private mutating func undo(_ back: PreparedCard?, now: Double) -> [Effect] {
    let left = back == nil ? [] : endFocus(now: now)
    switch session.undo(now: now, events: left, card: { _ in back }) {
    case .restored(let restored):
      focus = Focus(
        id: restored.prepared.card.id, type: restored.prepared.card.type, since: now)
      let shown = reduceScreen(.undone(restored), now: now)
      guard undosLeft > 0, let newest = session.window.tombstones.last else {
        undosLeft = 0
        return shown
      }
      undosLeft -= 1
      return shown + [.findCard(id: newest.cardID, for: .undo)]
    case .nothing:
      undosLeft = 0
      return reduceScreen(.undone(nil), now: now)
    case .gone(let reason):
      undosLeft = 0
      return reduceScreen(.undoRefused(reason), now: now)
    }
  }

  /// Why `u` on a history card undoes nothing: its swipe is older than the undo window's, or
  /// it was never swiped (or its swipe was undone).
  public static func notUndoable(limit: Int) -> String {
    "Only a card swiped in the last \(limit) swipes can be undone to, and not this one"
  }

  /// The writer's reports reach the session; a commit runs the hook on the reactions it made
  /// final, a failure asks for a retry, and the screen shows the problem saving, if any.
  private mutating func written(_ reports: [WriterReport], now: Double) -> [Effect] {
    var out: [Effect] = []
    var committed = false
    for report in reports {
      switch report {
      case .committed(let sequence, let indices):
        committed = true
        session.committed(sequence, indices: indices)
        out += (finalAfterWrite.removeValue(forKey: sequence) ?? []).map(Self.hook)
      case .failed(let reason):
        session.failed(reason: reason)
        out.append(.retryWrites)
      }
    }
    if committed { out.append(.deliverAnalytics) }
    return out + reduceScreen(.saveProblem(session.saveProblem), now: now) + renumber(now: now)
  }

  /// The card on screen under the number the session has for it now, when it showed another:
  /// its row got another number than expected (another process wrote rows meanwhile), or it
  /// was shown unsaved and its row is in, or a write failed and it is unsaved now.
  private mutating func renumber(now: Double) -> [Effect] {
    guard case .card(let shown) = screen.feed, let current = session.current,
      current.prepared.card.id == shown.prepared.card.id
    else { return [] }
    let number = session.number(current.position)
    guard number != shown.position else { return [] }
    return reduceScreen(.dealt(.card(shown.prepared), position: number), now: now)
  }

  /// The session's writes, for the writer; the reactions each makes final are kept for the
  /// hook until it commits.
  private mutating func handOver(now: Double) -> [Effect] {
    let writes = session.takeWrites()
    if hooks {
      for write in writes {
        let time = write.change.time > 0 ? write.change.time : now
        let final = Self.finals(in: write.change.effects, time: time)
        if !final.isEmpty { finalAfterWrite[write.sequence] = final }
      }
    }
    return writes.map(Effect.write)
  }

  private static func finals(in effects: [UndoEffect], time: Double) -> [FinalReaction] {
    effects.compactMap { effect in
      guard case .commit(let tombstone) = effect else { return nil }
      return FinalReaction(
        cardID: tombstone.cardID, reaction: tombstone.direction.reaction, time: time)
    }
  }

  private static func hook(_ final: FinalReaction) -> Effect {
    .runHook(cardID: final.cardID, reaction: final.reaction, time: final.time)
  }

  /// Records `events` in a change of their own, when analytics are on.
  private mutating func record(_ events: [AnalyticsEvent], now: Double) {
    guard analytics else { return }
    session.record(events, now: now)
  }

  /// The `Focus` event of the card on screen, which leaves it now.
  private mutating func endFocus(now: Double) -> [AnalyticsEvent] {
    guard analytics, let focus else { return [] }
    self.focus = nil
    let ms = Int64(max(0, (now - focus.since) * 1000).rounded())
    return [.focus(cardID: focus.id, type: focus.type, milliseconds: ms)]
  }
}

/// What the state writer reports from its thread.
public enum WriterReport: Sendable, Hashable {
  /// The change `sequence` committed; `indices` are the history numbers it gave its cards.
  case committed(UInt64, indices: [Int])
  /// A change could not be written (the writer keeps it, and the ones after it).
  case failed(reason: String)
}

/// What live sources changed, as the session and the screen need it.
public struct LiveChanges: Sendable, Hashable {
  /// Cards the sources removed.
  public var removed: Set<String>
  /// Changed cards the session holds, laid out for the screen.
  public var updated: [PreparedCard]
  /// A source replaced its whole collection: the ids of the undoable swipes' cards still in a
  /// source; nil when no source did.
  public var stillThere: Set<String>?
  /// Every type's status now.
  public var statuses: [TypeStatus]
  /// For the status line: a source ended or failed, a deck's bad line, a hook failed.
  public var message: String?

  public init(
    removed: Set<String> = [], updated: [PreparedCard] = [], stillThere: Set<String>? = nil,
    statuses: [TypeStatus] = [], message: String? = nil
  ) {
    self.removed = removed
    self.updated = updated
    self.stillThere = stillThere
    self.statuses = statuses
    self.message = message
  }
}
