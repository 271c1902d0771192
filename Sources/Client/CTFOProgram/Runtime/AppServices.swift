import App
import CardPreparation
import CardText
import FeedCore
import FeedPipeline

/// What the interactive app's machine (`AppMachine`) asks of the feed, the store and the
/// server: one method per effect, each performing it and returning what it found, deciding
/// nothing; and one poll for the news of the sources that change by themselves.
///
/// Every call is synchronous and fast, made on the UI thread: the ready queue is read without
/// waiting, preparations run on actors, and database writes are queued to a background writer.
protocol AppServices {
  /// The news since the last poll, as the machine's actions, in order: the writer's reports,
  /// and, on a wake-up (`woken`), the settings another process wrote (its commit wakes the
  /// loop), the server's line and what live sources changed (the cards `session` holds laid
  /// out again).
  func poll(woken: Bool, session: Session) -> [AppMachine.Action]
  /// `.takeFromFeed`: the first ready card (`.loading` while none is), starting nothing.
  func takeFromFeed() -> FeedItem
  /// `.refill`: starts preparing the cards that replace those taken.
  func refill()
  /// `.findCard`: a card by id, laid out for the screen; nil when no source holds it.
  func card(id: String) -> PreparedCard?
  /// `.loadTypes`: every type with its count, enabled and failing state.
  func typeStatuses() -> [TypeStatus]
  /// `.loadSettings`: the types, and the problems found in the decks, one line each.
  func settings() -> (statuses: [TypeStatus], problems: [String])
  /// `.askEnabledTypes`: the types the feed deals now.
  func enabledTypes() -> Set<String>
  /// `.enableTypes`: the feed deals `types` from now on; every type's status then.
  func enable(_ types: Set<String>) -> [TypeStatus]
  /// `.resizeTextArea`: ready cards are laid out again for `area`.
  func resize(textArea area: TextArea)
  /// `.write`: gives a change to the state writer.
  func write(_ write: Session.Write)
  /// `.retryWrites`: tells the writer, which holds what failed, to try again in a while.
  func retryWrites()
  /// `.loadHistory`: the last `limit` history entries (with `search`, the last `limit` whose
  /// title or text holds it) and how many the history holds, once every change is written.
  func history(limit: Int, matching search: String?, reaction: Reaction??)
    -> (entries: [HistoryEntry], total: Int)
  /// `.loadStats`: the reader's stats, once every write so far is in.
  func readingStats() -> ReadingStats
  /// `.finishWrites`: the feed stops, and the writer writes what it holds, trying what fails
  /// again a few times; the sequences not saved, and the writer's last reports.
  func finishWrites() -> (unsaved: [UInt64], reports: [WriterReport])
  /// `.runHook`: runs the reaction hook on a reaction stored for good.
  func runHook(cardID: String, reaction: Reaction, time: Double)
  /// `.deliverAnalytics`: events were committed, the analytics sinks may send them.
  func deliverAnalytics()
  /// `.pull`: pulls from the server now, in the background (nothing without a server).
  func pullNow()
  /// `.dismissNotice`: the notification was read.
  func dismissNotice(id: String)
  /// `.stopLink`: quitting, the server link stops.
  func stopLink()
  /// `.finish`: hooks and analytics get a moment to finish; `unsaved` changes are reported.
  func finish(unsaved: [UInt64], saveProblem: String?)
}

extension AppServices {
  /// Performs one of the machine's effects; the action that answers it, if any. `display`
  /// performs the terminal's (`.copy`, `.openURL`); `.quit` is the run loop's own, nothing here.
  /// Every runner, the app's loop and the tests' alike, performs effects through this one
  /// switch: none can leave one out (the refill after a frame, say).
  func perform(_ effect: AppMachine.Effect, display: (any AppDisplay)?) -> AppMachine.Action? {
    switch effect {
    case .takeFromFeed: return .fed(takeFromFeed())
    case .refill: refill()
    case .findCard(let id, let wanted): return .found(card(id: id), for: wanted)
    case .loadTypes: return .app(.typesLoaded(typeStatuses()))
    case .loadSettings:
      let (statuses, problems) = settings()
      return .app(.settingsLoaded(statuses, problems: problems))
    case .askEnabledTypes(let type, let enabled, let confirmed):
      return .enabledTypes(enabledTypes(), type: type, enabled: enabled, confirmed: confirmed)
    case .enableTypes(let types): return .app(.settingChanged(.applied(enable(types))))
    case .resizeTextArea(let area): resize(textArea: area)
    case .write(let change): write(change)
    case .retryWrites: retryWrites()
    case .loadHistory(let limit, let search, let filter):
      let (entries, total) = history(limit: limit, matching: search, reaction: filter.reaction)
      return .app(.historyLoaded(entries, total: total, search: search, filter: filter))
    case .loadStats: return .app(.statsLoaded(readingStats()))
    case .finishWrites:
      let (unsaved, reports) = finishWrites()
      return .writesFinished(unsaved: unsaved, reports: reports)
    case .runHook(let id, let reaction, let time):
      runHook(cardID: id, reaction: reaction, time: time)
    case .deliverAnalytics: deliverAnalytics()
    case .pull: pullNow()
    case .dismissNotice(let id): dismissNotice(id: id)
    case .stopLink: stopLink()
    case .finish(let unsaved, let problem): finish(unsaved: unsaved, saveProblem: problem)
    case .copy(let text): display?.copyToClipboard(text)
    case .openURL(let url):
      guard let display else { return .app(.urlOpened(failure: "No terminal to open links on")) }
      return .app(.urlOpened(failure: display.whileSuspended { LinkOpener.open(url) }))
    case .quit: break
    }
    return nil
  }
}
