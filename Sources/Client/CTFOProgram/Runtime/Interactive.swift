import App
import ArgumentParser
import CardText
import Decks
import FeedCore
import FeedPipeline
import Store
import Synchronization
import Terminal
import YieldToUser

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive app: wires the terminal, the feed, the session and the state writer, then
/// hands over to the run loop, on the calling (main) thread.
enum Interactive {
  static func run(_ global: GlobalOptions) throws {
    // Decks are synced before the screen is taken: a first import of a large deck prints its
    // problems on a normal terminal, not behind a blank screen.
    let launch = try Launch(global.values, interactive: true)
    let keys = try keyboard(cardsFromStandardInput: global.deck.contains(Launch.standardInput))
    let session: any AppDisplay
    do {
      session =
        launch.configuration.linear
        ? LinearDisplay(session: try LinearSession(input: keys))
        : try TerminalSession.open(input: keys, mouse: launch.configuration.mouse)
    } catch {
      Output.warn(error.description)
      throw ExitCode(2)
    }
    do {
      try run(launch, session: session)
    } catch {
      session.close()
      throw error
    }
  }

  /// Where keys come from: standard input, or the terminal itself (`/dev/tty`) when standard
  /// input brings cards (`some-command | ctfo --deck -`), as fzf does.
  private static func keyboard(cardsFromStandardInput: Bool) throws -> Int32 {
    guard cardsFromStandardInput else { return STDIN_FILENO }
    guard isatty(STDIN_FILENO) == 0 else {
      throw CLIError(
        "--deck - reads cards from standard input, which is this terminal; pipe them in: "
          + "some-command | ctfo --deck -", exitCode: 64)
    }
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0 else {
      throw CLIError("--deck -: keys are read from /dev/tty, which cannot be opened: "
        + Errors.text(errno), exitCode: 2)
    }
    return tty
  }

  /// `[hooks] reaction`, when set: fed from the state database's queue (those an earlier run
  /// left first), its failures noted for `ctfo status` and shown once.
  private static func reactionHook(
    _ launch: Launch, feed: Feed, wake: WakePipe
  ) -> (run: ReactionHook, failures: HookFailures)? {
    guard let command = launch.configuration.reactionHook else { return nil }
    let failures = HookFailures(path: launch.paths.hookFailure) { wake.wake() }
    let index = launch.index
    let hook = ReactionHook(
      command: command, waiting: HookQueue(database: launch.database),
      card: { entry in
        let known: Card? =
          switch feed.lookUp(entry.cardID) {
          case .live(let live): live
          case .removed: nil
          case .unknown: try? index.card(id: entry.cardID)
          }
        // A card gone from its source (a pipe's, after a relaunch): what history knows of it.
        return known ?? Card(id: entry.cardID, type: entry.type, title: entry.title, body: "")
      }
    ) { problem in
      failures.report(problem, at: NextRequest.now())
    }
    return (hook, failures)
  }

  private static func run(_ launch: Launch, session: any AppDisplay) throws {
    // This (main) thread's reads, one on every key, never wait behind a background read.
    launch.database.reserveReader()
    let wake = WakePipe()
    let reports = WriterReports(wake: wake)
    let writer = StateWriter(
      store: launch.state, onCommitted: reports.committed, onFailed: reports.failed)
    let size = session.size
    let area = Geometry.textArea(width: size.width, height: size.height)
    let mark = launch.mark
    let pull = ServerPull(configuration: launch.configuration, database: launch.database)
    // The running app's pulls leave holes in the ordinals (`ServerLink`); they close now.
    if pull != nil { try? ServerStore(database: launch.database).compactIfNeeded() }
    let outbox = Outbox(database: launch.database)
    let recording = launch.state.analytics.map { (outbox, $0) }
    // Set once the sinks run: the link records its pulls' events before they do.
    let runner = Mutex<AnalyticsRunner?>(nil)
    let link = pull.map {
      ServerLink(
        pull: $0, store: ServerStore(database: launch.database), index: launch.index,
        interval: launch.configuration.pullInterval,
        precacheBudget: launch.configuration.precacheBudget, wake: wake, analytics: recording,
        recorded: { runner.withLock { $0 }?.poke() })
    }
    let analytics = AnalyticsRunner(
      configuration: launch.configuration, recording: recording != nil, outbox: outbox,
      database: launch.database, pull: pull, changed: { wake.wake() })
    runner.withLock { $0 = analytics }
    let feed = try launch.feed(area: area, mark: mark, fetchBody: link?.bodies.body) {
      wake.wake()
    }
    // Live sources: a pipe of cards, and edits of the user's decks.
    let index = launch.index
    let base: @Sendable (String) -> CardKey? = { try? index.key(of: $0) }
    // The settings screen lists a piped deck's bad lines as it does a deck file's.
    let problems = DeckProblemList(launch.problems.map(\.description))
    if launch.readsStandardInput {
      let stream = DeckStream(fd: STDIN_FILENO, name: "stdin") { problem in
        problems.append(problem.description)
        feed.report(problem.description)
      }
      feed.follow(SequenceSource(stream), name: "stdin", base: base)
    }
    // One watcher, kept for the run: edits of the decks reach the feed, and a change of the
    // state folder (another process's commit) wakes the loop at once.
    let edits = DeckEdits(feed: feed, index: launch.index)
    let database = launch.paths.stateDatabase
    let folder = database.lastIndex(of: "/").map { String(database[..<$0]) } ?? "."
    // Feeds are fetched on a thread of their own; their decks are watched as the user's are.
    let feeds = FeedRunner(paths: launch.paths, configuration: launch.configuration)
    let watcher = FileWatcher(
      files: launch.flaggedDecks,
      folders: [launch.paths.userDecks] + (feeds == nil ? [] : [launch.paths.feeds]),
      stateFolder: folder.isEmpty ? "/" : folder
    ) { [weak edits] change in
      if change.contains(.state) { wake.wake() }
      if change.contains(.decks) { edits?.decksChanged() }
    }
    edits.follow(watcher)
    let (window, launched) = try launch.state.launchUndo(
      configuration: launch.configuration.undo, time: NextRequest.now())
    feed.start()
    // The launch counts as a key: the launch's pull and flush wait for the user's first pause.
    Courtesy.userActed()
    link?.start(feed: feed)
    feeds?.start()
    let services = LiveServices(
      launch: launch, feed: feed, writer: writer, reports: reports, problems: problems,
      area: area, mark: mark, link: link, analytics: analytics.isEmpty ? nil : analytics,
      hook: reactionHook(launch, feed: feed, wake: wake))
    let machine = AppMachine(
      screen: AppState(
        width: size.width, height: size.height, mark: mark, keys: launch.keys,
        // Linear output has no motion to show.
        motion: launch.configuration.linear ? .none : launch.configuration.motion,
        clipboard: launch.configuration.clipboard,
        ascii: launch.configuration.ascii, mouse: session.reportsMouse),
      session: services.session(window: window, returning: try launch.state.returning()),
      analytics: launch.state.analytics != nil,
      hooks: launch.configuration.reactionHook != nil, disabledTypes: services.disabledTypes(),
      now: NextRequest.now())
    // What earlier runs left in the outbox goes now.
    analytics.poke()
    defer { withExtendedLifetime((watcher, edits)) {} }
    InteractiveApp(session: session, wakeFD: wake.fd, services: services, machine: machine)
      .run(launched: launched)
  }
}
