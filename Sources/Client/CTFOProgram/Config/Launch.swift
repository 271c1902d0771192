import App
import CardPreparation
import CardText
import Decks
import FeedCore
import FeedPipeline
import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What every command needs: the paths, the configuration, the opened state database and the
/// deck index, synced with the decks on disk.
struct Launch {
  let paths: Paths
  let configuration: Configuration
  /// The app's keys: the defaults with config.toml's `[keys]`.
  var keys: KeyBindings { configuredKeys ?? .standard }
  /// config.toml's `[keys]` over the defaults, checked by every command; nil when it binds
  /// none (the defaults are then neither built nor checked: a command that draws nothing
  /// skips their two dictionaries' first conformance look-ups).
  private let configuredKeys: KeyBindings?
  let database: StateDatabase
  let index: DeckIndex
  let state: StateStore
  let seed: UInt64
  /// The problems of every deck, found at launch (none when the decks were not synced).
  let problems: [DeckProblem]
  /// The `--deck` files, as absolute paths.
  let flaggedDecks: [String]
  /// `--deck -`: standard input brings cards (the app follows it as a live source).
  let readsStandardInput: Bool

  /// The `--deck` name of standard input.
  static let standardInput = "-"

  /// Opens the state and, unless `syncDecks` is false (a command that reads no card), syncs
  /// the decks; the problems of decks indexed now go to stderr, one line each.
  /// `interactive` gives the database a reader connection of its own, for the UI thread.
  /// `paths` replaces those of `options.home` (a test's home, without the bundled decks).
  init(
    _ options: OptionValues, paths given: Paths? = nil, syncDecks: Bool = true,
    interactive: Bool = false
  ) throws {
    paths = given ?? Paths(home: options.home)
    configuration = try Configuration.load(file: paths.configFile, flags: options)
    configuredKeys =
      configuration.keyBindings.isEmpty ? nil : try Self.keys(configuration, file: paths.configFile)
    seed = options.seed ?? UInt64.random(in: .min ... .max)
    do {
      database = try StateDatabase(path: paths.stateDatabase, oneConnection: !interactive)
    } catch {
      throw CLIError("cannot open the state database \(paths.stateDatabase): \(error)")
    }
    index = DeckIndex(database: database)
    let sinks = AnalyticsSinks.configured(configuration)
    state = StateStore(
      database: database, analytics: sinks.isEmpty ? nil : AnalyticsSinks.context,
      hooks: configuration.reactionHook != nil)
    // `--deck -` is standard input, a live source of the app (`Interactive`), not a file.
    let files = options.deck.filter { $0 != Self.standardInput }
    readsStandardInput = files.count < options.deck.count
    if readsStandardInput, !interactive {
      throw CLIError(
        "--deck - (cards from standard input) is for the app; give this command a deck file",
        exitCode: 64)
    }
    let decks = syncDecks ? paths.decks(extra: files) : []
    // With no deck at all (a program copied away from its decks), every command would show an
    // empty feed; the server's cards and standard input's may come later.
    if syncDecks, decks.isEmpty, !readsStandardInput, configuration.server == nil {
      throw CLIError(paths.noDecksMessage, exitCode: 66)
    }
    flaggedDecks = Array(decks.suffix(files.count))
    // A deck asked for by name must be there; the folders' decks are what they are.
    for path in decks.suffix(files.count) where access(path, R_OK) != 0 {
      throw CLIError("cannot read the deck \(path): \(Errors.text(errno))", exitCode: 66)
    }
    var progress = ReadProgress.standardErrorIfTerminal.map {
      ReadProgress(now: ReadProgress.monotonic, write: $0)
    }
    let report =
      syncDecks
      ? try index.sync(
        decks: decks,
        progress: progress == nil ? nil : { path, done, total in
          progress?.update(path, done, total)
        }) : SyncReport()
    progress?.finish()
    problems = report.problems
    // A deck's bad lines are said when it is (re)indexed, not again on every run; `deck check`
    // and the settings screen list them all. A file that cannot be read is said every time.
    let indexed = Set(report.indexed)
    for problem in problems where problem.line == nil || indexed.contains(problem.path) {
      Output.warn(problem.description)
    }
  }

  /// The reader's stats now, days counted in the local time zone (TZ).
  func readingStats() throws -> ReadingStats {
    let now = NextRequest.now()
    return try state.readingStats(now: now, utcOffset: Timestamp.utcOffset(at: now))
  }

  /// The key bindings of the config file, checked like every other setting: a wrong name or a
  /// key bound twice stops every command with its line and exit status 78.
  private static func keys(_ configuration: Configuration, file: String) throws -> KeyBindings {
    do {
      return try KeyBindings(
        configured: configuration.keyBindings.map { ($0.action, $0.keys, $0.line) })
    } catch {
      throw CLIError("\(file):\(error.line): \(error.message)", exitCode: CLIError.configExit)
    }
  }

  /// The card source of the feed: the deck index with `catalog`, slowed down for tests when
  /// `CTFO_TEST_FETCH_DELAY_MS` is set.
  func source(
    catalog: [TypeCount], fetchBody: (@Sendable (String) async throws -> String)? = nil
  ) throws -> any CardSource {
    // A connection of its own: the preparations read from the pool's threads, apart from
    // the UI thread's reads and the writer's transactions.
    let deck = DeckSource(
      catalog: catalog, reader: try CardReader(path: database.path), fetchBody: fetchBody)
    let delay = Environment.variable("CTFO_TEST_FETCH_DELAY_MS").flatMap { Int($0) }
    guard let delay, delay > 0 else { return deck }
    return DelayedSource(base: deck, milliseconds: delay)
  }

  /// Every type with its card count, and the types the settings enable.
  /// A label of config.toml's `[labels]` replaces its deck's.
  func types() throws -> (catalog: [TypeCount], enabled: Set<String>) {
    let labels = configuration.labels
    let catalog = try index.catalog().map { entry in
      var entry = entry
      if let label = labels[entry.type.name] { entry.type.label = label }
      return entry
    }
    return (catalog, Set(catalog.map(\.type.name)).subtracting(try state.disabledTypes()))
  }

  /// What ends a cut line here: `...` where the locale's terminal may draw `…` two cells wide.
  /// (Only its variables are read: a map of the whole environment was a measurable part of
  /// `ctfo next`'s work.)
  var mark: TruncationMark {
    if configuration.ascii { return .ascii }
    var environment: [String: String] = [:]
    for name in TruncationMark.variables { environment[name] = Environment.variable(name) }
    return TruncationMark(environment: environment)
  }

  /// A feed over the enabled types, laid out for `area`, that goes on with the home's rounds.
  func feed(
    area: TextArea, mark: TruncationMark,
    fetchBody: (@Sendable (String) async throws -> String)? = nil,
    onReady: @escaping @Sendable () -> Void
  ) throws -> Feed {
    let (catalog, enabled) = try types()
    let feed = Feed(
      source: try source(catalog: catalog, fetchBody: fetchBody), catalog: catalog,
      enabled: enabled,
      lookahead: configuration.lookahead, seed: seed, resuming: try state.roundProgress(),
      area: area, onReady: onReady,
      layout: { Preparation.laidOut($0, for: $1, mark: mark) }, fetchBody: fetchBody)
    feed.updateScores(try scores(of: enabled))
    return feed
  }

  /// The server's scores of the unseen cards of `types` (ctfo.md, "Personalization").
  func scores(of types: Set<String>) throws -> [PoolScore] {
    let store = ServerStore(database: database)
    // The scores of the feed configured, not of the one pulled before a switch.
    if configuration.server != nil { try store.adopt(feed: configuration.feed) }
    return try store.scores(of: types)
  }
}
