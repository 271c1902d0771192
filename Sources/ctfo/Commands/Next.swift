import ArgumentParser
import CommandSupport
import FeedCore
import Store

/// `ctfo next`: deals the next cards of the feed and prints them, like fortune.
struct Next: ParsableCommand {
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

  func run() throws {
    let request = NextRequest(
      globals: global.values, count: n, width: width, height: height, json: json)
    let launch = try Launch(global.values)
    let catalog = try launch.index.catalog()
    let enabled = Set(catalog.map(\.type.name)).subtracting(try launch.state.disabledTypes())
    let reader = try launch.index.reader()
    let lookahead = launch.configuration.lookahead
    let path = launch.paths.stateDatabase
    // A small batch is dealt on this thread: no task, so no thread of the pool is started.
    let cards =
      n <= NextRequest.serialLimit
      ? try request.dealSerially(
        catalog: catalog, enabled: enabled, reader: reader, lookahead: lookahead)
      : try Blocking.wait {
        try await request.deal(
          catalog: catalog, enabled: enabled, reader: reader, stateDatabase: path,
          lookahead: lookahead)
      }
    _ = try launch.state.appendShown(cards.map(\.card), time: NextRequest.now())
    request.print(cards)
  }
}
