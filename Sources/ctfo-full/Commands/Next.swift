import ArgumentParser
import CommandSupport
import StateFile

/// `ctfo next`: deals the next cards of the feed and prints them, like fortune.
struct Next: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the next cards of the feed, laid out as the app would.",
    discussion: """
      The cards go to history (in one transaction). W and H default to the terminal's size when \
      standard output is a terminal, else 60 and 12. With --json, one object per line: \
      {"id", "type", "title", "lines", "truncated"}.
      """)

  @OptionGroup var global: GlobalOptions
  @Option(name: .short, help: "How many cards.") var n = 1
  @Option(name: .long, help: "Columns of the text area.") var width: Int?
  @Option(name: .long, help: "Lines of the text area.") var height: Int?
  @Flag(name: .long, help: "One JSON object per card and line.") var json = false

  func validate() throws {
    guard n >= 0 else { throw ValidationError("-n must be 0 or more") }
    if let width, width < 1 { throw ValidationError("--width must be at least 1") }
    if let height, height < 1 { throw ValidationError("--height must be at least 1") }
  }

  var request: NextRequest {
    NextRequest(globals: global.values, count: n, width: width, height: height, json: json)
  }

  func run() async throws { try await request.run() }
}

/// The full run of `ctfo next`, for what the small `ctfo` hands over: it reads the config file
/// (and records its stamp for the quick path), and migrates and syncs first when the state
/// needs it.
extension NextRequest {
  func run() async throws {
    let paths = Paths(full: globals.home)
    let stamp = FileStamp.of(paths.configFile)
    let fromFile = try Configuration.read(file: paths.configFile)
    var configuration = fromFile
    try configuration.apply(flags: globals)
    let store = try Self.openStore(paths: paths, globals: globals)
    if let stamp, (try? store.configLookahead(path: paths.configFile, stamp: stamp)) != fromFile.lookahead {
      // Only a shortcut for later runs: failing to record it costs them time, not correctness.
      try? store.recordConfig(path: paths.configFile, stamp: stamp, lookahead: fromFile.lookahead)
    }
    let cards = try await deal(
      store: store, stateDatabase: paths.stateDatabase, lookahead: configuration.lookahead)
    try Self.record(cards, in: store)
    print(cards)
  }

  /// The state on one plain connection; when the database is new, needs a migration or the
  /// decks changed, the full launch (GRDB, deck sync, problems on stderr) runs first.
  private static func openStore(paths: Paths, globals: Globals) throws -> DirectStore {
    let decks = paths.decks(extra: globals.deck)
    do {
      if let store = try DirectStore.open(path: paths.stateDatabase, decks: decks) { return store }
      _ = try Launch(globals)
      return try DirectStore.open(path: paths.stateDatabase)
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("cannot open the state database \(paths.stateDatabase): \(error)")
    }
  }
}
