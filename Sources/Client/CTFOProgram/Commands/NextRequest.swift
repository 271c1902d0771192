import CardPreparation
import CardText
import FeedCore
import FeedPipeline
import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `ctfo next` was asked for, and the rest of its run: the deal (on the calling thread,
/// with no task, pool or dispatch queue, unless the batch is large) and the printing.
struct NextRequest: Equatable, Sendable {
  var globals = OptionValues()
  var count = 1
  var width: Int?
  var height: Int?
  var json = false
  /// Print what the card keeps for its whole view too: a trivia answer, a punchline.
  var reveal = false
  /// Only short or only long cards, as fortune's `-s` and `-l`.
  var length: CardLength?
  /// What ends a cut line: `…`, or `...` where the terminal may draw `…` two cells wide.
  var mark: TruncationMark

  init(
    globals: OptionValues = OptionValues(), count: Int = 1, width: Int? = nil, height: Int? = nil,
    json: Bool = false, reveal: Bool = false, length: CardLength? = nil,
    mark: TruncationMark = .ellipsis
  ) {
    self.mark = mark
    self.globals = globals
    self.count = count
    self.width = width
    self.height = height
    self.json = json
    self.reveal = reveal
    self.length = length
  }

  /// Up to this many cards are dealt on the calling thread; more go through a `Feed`, whose
  /// preparations run on every core, which pays off only for a large batch. Both deal the same
  /// cards for the same seed and lookahead.
  static let serialLimit = 256

  /// The text area: `--width` and `--height`, else the terminal's size; when the output is not
  /// a terminal, 60 columns and the whole card (as fortune prints a whole fortune).
  var area: TextArea {
    let size = TerminalSize.ofStandardOutput()
    return TextArea(width: width ?? size?.width ?? 60, height: height ?? size?.height ?? .max)
  }

  /// The card, or an error that skips it (the engine deals another of its type) when the
  /// length filter does not admit it.
  func admitted(_ card: Card) throws -> Card {
    guard let length, !length.admits(card) else { return card }
    throw FilteredOut()
  }

  /// Deals more than `serialLimit` cards of `catalog`'s `enabled` types through a concurrent
  /// `Feed` (both cores prepare), in deal order, and hands them to `chunk` a thousand at a
  /// time, as they come; `chunk` returns false to stop (the reader went away).
  /// `stateDatabase` is the database's path and `lookahead` the configured one; `progress`
  /// is where the home's rounds stood.
  func deal(
    catalog: [TypeCount], enabled: Set<String>, scores: [PoolScore],
    progress: RoundProgress<Int> = RoundProgress(), stateDatabase: String,
    lookahead configured: Int, chunk: ([PreparedCard]) throws -> Bool
  ) async throws {
    // A connection of its own for the preparations: the store's is shared with its writes.
    let deck = DeckSource(
      catalog: catalog, reader: try CardReader(path: stateDatabase, snapshot: true))
    let source: any CardSource = length == nil ? deck : FilteredSource(base: deck, admit: admitted)
    let feed = Feed(
      source: source, catalog: catalog, enabled: enabled, lookahead: Self.lookahead(configured),
      seed: seed, resuming: progress, area: area, inDealOrder: true,
      layout: { [mark] in Preparation.laidOut($0, for: $1, mark: mark) })
    feed.updateScores(scores)
    feed.start()
    defer { feed.stop() }
    var dealt: [PreparedCard] = []
    var left = count
    while left > 0 {
      switch await feed.next() {
      case .card(let card): dealt.append(card)
      case .unavailable(let message): throw CLIError(message)
      case .loading: continue
      }
      left -= 1
      guard dealt.count == Self.chunkSize || left == 0 else { continue }
      guard try chunk(dealt) else { return }
      dealt.removeAll(keepingCapacity: true)
    }
  }

  /// Cards handed over at a time by a large deal: printed, then recorded in one transaction.
  static let chunkSize = 1024

  /// Deals the cards on the calling thread (for up to `serialLimit` cards: the same cards
  /// `deal` gives).
  func dealSerially(
    catalog: [TypeCount], enabled: Set<String>, scores: [PoolScore],
    progress: RoundProgress<Int> = RoundProgress(), reader: CardReader, lookahead configured: Int
  ) throws -> [PreparedCard] {
    let source = DeckSource(catalog: catalog, reader: reader)
    do throws(FeedUnavailable) {
      return try SerialDeal.cards(
        count, catalog: catalog, enabled: enabled, lookahead: Self.lookahead(configured),
        seed: seed, resuming: progress, area: area, mark: mark, scores: scores,
        fetch: { try admitted(source.card(type: $0, ordinal: $1)) })
    } catch {
      throw CLIError(error.description)
    }
  }

  /// Eight in flight keep a feed's two cores busy; the same number for the serial deal keeps
  /// `-n 10` the first ten cards of `-n 1000` with the same seed.
  static func lookahead(_ configured: Int) -> Int { max(configured, 8) }

  private var seed: UInt64 { globals.seed ?? UInt64.random(in: .min ... .max) }

  /// Seconds since 1970, now.
  static func now() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

}

/// Writes the cards of `ctfo next` as fortune does, `%` on a line between two, each under its
/// type's label, with its source (and its answer with `--reveal`); or one JSON object each.
///
/// It tells how many cards of each batch reached the output whole, so that history records
/// what was printed and nothing else.
struct CardPrinter {
  private let request: NextRequest
  private let labels: [String: String]
  private var out = StandardOutput()
  private var started = false
  /// True once the reader went away (a closed pipe): stop dealing; it is not an error.
  private(set) var closed = false

  /// `labels` are the types' labels by name.
  init(_ request: NextRequest, labels: [String: String]) {
    self.request = request
    self.labels = labels
  }

  /// Writes `cards` and returns how many reached the output whole. Throws when the output
  /// fails for another reason than a closed pipe (a full disk).
  mutating func write(_ cards: [PreparedCard]) throws(CLIError) -> Int {
    guard !closed else { return 0 }
    var ends: [Int] = []
    for card in cards {
      render(card)
      ends.append(out.offset)
    }
    out.flush()
    if let failure = out.failure {
      guard failure == EPIPE else {
        throw CLIError("cannot write the output: \(Errors.text(failure))")
      }
      closed = true
    }
    let written = out.bytesWritten
    return ends.prefix { $0 <= written }.count
  }

  private mutating func render(_ card: PreparedCard) {
    let label = Sanitizer.sanitizeLine(labels[card.card.type] ?? card.card.type)
    let answer = request.reveal ? card.card.reveal : nil
    let source = request.reveal ? card.card.citedSource : card.card.faceSource
    let url = request.reveal ? card.card.url.flatMap { $0.isEmpty ? nil : $0 } : card.card.faceURL
    if request.json {
      return out.jsonObject([
        "id": .string(card.card.id), "type": .string(card.card.type), "label": .string(label),
        "title": .string(card.card.title.map(Sanitizer.sanitizeLine)),
        "lines": .strings(card.layout.lines), "truncated": .bool(card.layout.truncated),
        "reveal": .string(answer), "source": .string(source), "url": .string(url),
      ])
    }
    if started { out.line("%") }
    started = true
    out.line("[\(label)]")
    for line in card.layout.lines { out.line(line) }
    if let answer, !answer.isEmpty {
      out.line("")
      let width = max(card.layout.lines.map(DisplayWidth.of).max() ?? 60, 20)
      for line in CardLayout.layout(title: nil, body: answer, width: width, height: .max).lines {
        out.line(line)
      }
    }
    if let source { out.line("  -- " + source) }
    if let url { out.line("  " + url) }
    // A question without its answer would leave a newcomer guessing how to see it.
    if !request.reveal, !(card.card.reveal ?? "").isEmpty { out.line(Self.hiddenAnswer) }
  }

  /// The line that ends a card whose answer or punchline is not printed.
  static let hiddenAnswer = "  (answer hidden: --reveal prints it)"
}

/// Fortune's `-s` and `-l`: cards of at most, or more than, 160 characters (title and body).
enum CardLength: String, Sendable, Hashable, CaseIterable {
  case short, long

  static let limit = 160

  func admits(_ card: Card) -> Bool {
    let length = (card.title?.count ?? 0) + card.body.count
    return self == .short ? length <= Self.limit : length > Self.limit
  }
}

/// A card the length filter left out.
struct FilteredOut: Error {}

/// A source whose cards pass `admit` first; one it refuses is skipped, as a failed fetch is.
struct FilteredSource<Base: CardSource>: CardSource {
  let base: Base
  let admit: @Sendable (Card) throws -> Card

  func catalog() async throws -> [TypeCount] { try await base.catalog() }

  func fetch(type: String, ordinal: Int) async throws -> Card {
    try admit(try await base.fetch(type: type, ordinal: ordinal))
  }
}
