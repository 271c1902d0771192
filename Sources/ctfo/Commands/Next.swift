import ArgumentParser
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

  func run() async throws {
    let launch = try Launch(global)
    let size = TerminalSize.ofStandardOutput()
    let area = TextArea(width: width ?? size?.width ?? 60, height: height ?? size?.height ?? 12)
    // Asked for many cards at once, keep more in flight: the preparations overlap better and
    // the loop below rarely waits. The order stays the deal order, so the seed still decides it.
    let feed = try launch.feed(
      area: area, lookahead: max(launch.configuration.lookahead, min(n, 8)), inDealOrder: true)
    feed.start()
    var cards: [PreparedCard] = []
    cards.reserveCapacity(n)
    for _ in 0..<n {
      switch await feed.next() {
      case .card(let card): cards.append(card)
      case .unavailable(let message): throw CLIError(message)
      case .loading: continue
      }
    }
    feed.stop()
    let first = try launch.state.nextHistoryIndex()
    let now = Date().timeIntervalSince1970
    try launch.state.append(
      cards.enumerated().map { i, prepared in
        HistoryEntry(
          index: first + i, cardID: prepared.card.id, type: prepared.card.type,
          title: prepared.card.title, shownAt: now)
      })
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
}
