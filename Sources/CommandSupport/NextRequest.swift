import CardText
import FeedCore
import FeedPipeline
import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `ctfo next` was asked for, and the part of its run both binaries share: the deal (on
/// the calling thread, with no task, pool or dispatch queue, unless the batch is large) and
/// the printing.
public struct NextRequest: Equatable, Sendable {
  public var globals = Globals()
  public var count = 1
  public var width: Int?
  public var height: Int?
  public var json = false

  public init(
    globals: Globals = Globals(), count: Int = 1, width: Int? = nil, height: Int? = nil,
    json: Bool = false
  ) {
    self.globals = globals
    self.count = count
    self.width = width
    self.height = height
    self.json = json
  }

  /// Up to this many cards are dealt on the calling thread; more go through a `Feed`, whose
  /// preparations use both cores (measured at 30,000 cards: 43,000 cards/s alone, 56,000 with
  /// the feed). Both deal the same cards for the same seed and lookahead.
  public static let serialLimit = 256

  /// The text area: `--width` and `--height`, else the terminal's size, else 60 by 12.
  public var area: TextArea {
    let size = TerminalSize.ofStandardOutput()
    return TextArea(width: width ?? size?.width ?? 60, height: height ?? size?.height ?? 12)
  }

  /// Deals more than `serialLimit` cards of `catalog`'s `enabled` types through a concurrent
  /// `Feed` (both cores prepare), in deal order; `stateDatabase` is the database's path and
  /// `lookahead` the configured one.
  public func deal(
    catalog: [TypeCount], enabled: Set<String>, stateDatabase: String, lookahead configured: Int
  ) async throws -> [PreparedCard] {
    // A connection of its own for the preparations: the store's is shared with its writes.
    let feed = Feed(
      source: DeckSource(catalog: catalog, reader: try CardReader(path: stateDatabase)),
      catalog: catalog, enabled: enabled, lookahead: Self.lookahead(configured), seed: seed,
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
    return dealt
  }

  /// Deals the cards on the calling thread (for up to `serialLimit` cards: the same cards
  /// `deal` gives).
  public func dealSerially(
    catalog: [TypeCount], enabled: Set<String>, reader: CardReader, lookahead configured: Int
  ) throws -> [PreparedCard] {
    let source = DeckSource(catalog: catalog, reader: reader)
    do throws(FeedUnavailable) {
      return try SerialDeal.cards(
        count, catalog: catalog, enabled: enabled, lookahead: Self.lookahead(configured),
        seed: seed, area: area, fetch: source.card)
    } catch {
      throw CLIError(error.description)
    }
  }

  /// Eight in flight keep a feed's two cores busy; the same number for the serial deal keeps
  /// `-n 10` the first ten cards of `-n 1000` with the same seed.
  static func lookahead(_ configured: Int) -> Int { max(configured, 8) }

  private var seed: UInt64 { globals.seed ?? UInt64.random(in: .min ... .max) }

  /// Seconds since 1970, now.
  public static func now() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Prints the cards: their lines with a blank line between cards, or one JSON object each.
  public func print(_ cards: [PreparedCard]) throws(CLIError) {
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
    try out.finish()
  }
}
