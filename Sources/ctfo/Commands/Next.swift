import ArgumentParser
import CardStore
import CardText
import FeedCore
import FeedPipeline
import Foundation

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

/// What `ctfo next` was asked for, and the run itself: on the calling thread, with no task,
/// pool or dispatch queue, so that it starts about as fast as fortune.
struct NextRequest: Equatable {
  var globals = Globals()
  var count = 1
  var width: Int?
  var height: Int?
  var json = false

  /// Up to this many cards are dealt on the calling thread; more go through a `Feed`, whose
  /// preparations use both cores (measured at 30,000 cards: 43,000 cards/s alone, 56,000 with
  /// the feed). Both deal the same cards for the same seed and lookahead.
  static let serialLimit = 256

  func run() async throws {
    let paths = Paths(home: globals.home)
    let configuration = try Configuration.load(file: paths.configFile, flags: globals)
    let store = try Self.openStore(paths: paths, globals: globals)
    let size = TerminalSize.ofStandardOutput()
    let area = TextArea(width: width ?? size?.width ?? 60, height: height ?? size?.height ?? 12)
    let catalog = try store.catalog()
    let enabled = Set(catalog.map(\.type.name)).subtracting(try store.disabledTypes())
    let source = DeckSource(catalog: catalog, reader: store.reader)
    let seed = globals.seed ?? UInt64.random(in: .min ... .max)
    // Eight in flight keep a feed's two cores busy; the same number for the serial deal keeps
    // `-n 10` the first ten cards of `-n 1000` with the same seed.
    let lookahead = max(configuration.lookahead, 8)
    let cards: [PreparedCard]
    if count <= Self.serialLimit {
      do throws(FeedUnavailable) {
        cards = try SerialDeal.cards(
          count, catalog: catalog, enabled: enabled, lookahead: lookahead, seed: seed, area: area,
          fetch: source.card)
      } catch {
        throw CLIError(error.description)
      }
    } else {
      // A connection of its own for the preparations: the store's is opened in SQLite's
      // serialised mode, whose extra lock the two preparing threads would contend for.
      let reader = try CardReader(path: paths.stateDatabase)
      let feed = Feed(
        source: DeckSource(catalog: catalog, reader: reader), catalog: catalog, enabled: enabled, lookahead: lookahead, seed: seed,
        area: area, inDealOrder: true)
      feed.start()
      defer { feed.stop() }
      var dealt: [PreparedCard] = []
      dealt.reserveCapacity(count)
      while dealt.count < count {
        switch await feed.next() {
        case .card(let card): dealt.append(card)
        case .unavailable(let message): throw CLIError(message)
        case .loading: continue
        }
      }
      cards = dealt
    }
    _ = try store.appendShown(cards.map(\.card), time: Date().timeIntervalSince1970)
    var out = StandardOutput()
    for (i, card) in cards.enumerated() {
      if json {
        out.jsonObject([
          "id": .string(card.card.id), "type": .string(card.card.type),
          "title": .string(card.card.title), "lines": .strings(card.layout.lines),
          "truncated": .bool(card.layout.truncated),
        ])
      } else {
        if i > 0 { out.line("") }
        for line in card.layout.lines { out.line(line) }
      }
    }
    out.flush()
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
