import ArgumentParser
import CardText
import FeedCore
import FeedPipeline
import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ctfo next`: deals the next cards of the feed and prints them, like fortune.
struct Next: ParsableCommand {
  // Every command names itself: the default name is derived from the type's name at run time
  // (String(describing:), a demangling), a third of ArgumentParser's start-up (callgrind).
  static let configuration = CommandConfiguration(
    commandName: "next",
    abstract: "Print the next cards of the feed, laid out as the app would.",
    discussion: """
      Like fortune: each card under its type's label, `%` on a line between two cards, its \
      source at the end. A trivia answer or a punchline (and a trivia card's source, which may \
      give the answer away) shows only with --reveal. The cards go to history (in one \
      transaction). W and H default to the terminal's size when standard output is a \
      terminal; otherwise W is 60 and the whole card is printed. With --json, one object per \
      line: {"id", "type", "label", "title", "lines", "truncated", "reveal", "source", "url"}.
      """)

  @OptionGroup var global: GlobalOptions
  // Unconditional: `-n -1` is a bad count, not a missing value. An optional without a default,
  // as every other count: a default value of its own type costs ArgumentParser's start-up
  // four of the runtime's conformance look-ups (its description, and `Option<Int>` beside
  // `Option<Int?>`), each a scan of every conformance record of the binary.
  @Option(
    name: .short, parsing: .unconditional, help: "How many cards (default \(Self.defaultCount)).")
  var n: Int?
  @Option(name: .long, help: "Columns of the text area.") var width: Int?
  @Option(name: .long, help: "Lines of the text area.") var height: Int?
  @Flag(name: .long, help: "One JSON object per card and line.") var json = false
  @Flag(name: .long, help: "Print the answers and punchlines too (and trivia sources).")
  var reveal = false
  @Flag(name: .short, help: "Only short cards (at most 160 characters), as fortune -s.")
  var s = false
  @Flag(name: .short, help: "Only long cards (more than 160 characters), as fortune -l.")
  var l = false

  /// How many cards without `-n`.
  static let defaultCount = 1
  private var count: Int { n ?? Self.defaultCount }

  func validate() throws {
    guard count >= 0 else { throw ValidationError("-n must be 0 or more") }
    try SizeOptions.check(width: width, height: height)
    if s && l { throw ValidationError("-s and -l cannot be given together") }
  }

  /// What the command line asks for (the truncation mark is the terminal's, known at launch).
  var request: NextRequest {
    NextRequest(
      globals: global.values, count: count, width: width, height: height, json: json,
      reveal: reveal, length: s ? .short : l ? .long : nil)
  }

  func run() throws { try Self.run(request) }

  /// Deals and prints what `asked` asks for: the one run of `ctfo next`, whether ArgumentParser
  /// or the hot path (`NextHotPath`) read the command line.
  static func run(_ asked: NextRequest) throws {
    let launch = try Launch(asked.globals)
    var marked = asked
    marked.mark = launch.mark
    let request = marked
    let count = request.count
    let lookahead = launch.configuration.lookahead
    let (catalog, enabled) = try launch.types()
    let scores = try launch.scores(of: enabled)
    let progress = try launch.state.roundProgress()
    let labels = Dictionary(catalog.map { ($0.type.name, $0.type.label) }) { a, _ in a }
    // A reader that goes away (`ctfo next | head`) is a closed pipe to stop at, not a signal
    // to die of: history then records exactly the cards that were printed.
    signal(SIGPIPE, SIG_IGN)
    let state = launch.state
    if count <= NextRequest.serialLimit {
      // Dealt on this thread, no task started.
      let cards = try launch.database.snapshot {
        try request.dealSerially(
          catalog: catalog, enabled: enabled, scores: scores, progress: progress,
          reader: launch.index.reader(), lookahead: lookahead)
      }
      var printer = CardPrinter(request, labels: labels)
      let printed = try printer.write(cards)
      _ = try state.appendShown(cards.prefix(printed).map(\.card), time: NextRequest.now())
      return
    }
    let path = launch.paths.stateDatabase
    try Blocking.wait {
      var printer = CardPrinter(request, labels: labels)
      try await request.deal(
        catalog: catalog, enabled: enabled, scores: scores, progress: progress,
        stateDatabase: path, lookahead: lookahead
      ) { chunk in
        let printed = try printer.write(chunk)
        _ = try state.appendShown(chunk.prefix(printed).map(\.card), time: NextRequest.now())
        return !printer.closed
      }
    }
  }
}
