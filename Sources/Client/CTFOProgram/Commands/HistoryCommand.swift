import App
import ArgumentParser
import CardText
import FeedCore
import Store

/// `ctfo history`: the cards shown, newest first, numbered from 1 as the app's `#1`; filtered
/// by reaction and date, and written as lines, JSON Lines, CSV or Markdown.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "List the cards shown, newest first.",
    discussion: """
      Keep what you liked: `ctfo history --reaction ctfo --format markdown > liked.md` writes \
      every card you swiped up, a section each with its text, source and link. --format csv \
      has a header row and RFC 4180 quoting, and a ' before a cell that starts with = + - @, \
      a tab or a carriage return, which a spreadsheet would read as a formula; --format jsonl \
      is --json. Every format but JSON drops control characters from the cards' text; JSON \
      writes them, and bidi controls, as \\u escapes.
      """)

  @OptionGroup var global: GlobalOptions
  // No default value of its own: see `Next.n`.
  @Option(
    name: .short, parsing: .unconditional,
    help: "How many entries (default \(Self.defaultLimit); every match with --reaction, --since or --until).")
  var n: Int?

  @Flag(name: .long, help: "One JSON object per entry and line (as --format jsonl).") var json = false
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Only the cards whose title or text holds TEXT (ASCII letters in either case), among the newest \(StateStore.searchDepth) shown.",
      valueName: "TEXT"))
  var search: String?
  // Plain strings, checked in `validate`: an enum of ArgumentParser's costs every command's
  // start-up its conformance look-ups.
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Only the cards with this reaction: ctfo, tfu, tifb, or none (shown, not swiped).",
      valueName: "R"))
  var reaction: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Only the cards shown on or after DATE (ISO 8601, UTC: 2026-11-28 or 2026-11-28T09:30:00Z).",
      valueName: "DATE"))
  var since: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Only the cards shown on or before DATE (a whole day for a date).", valueName: "DATE"))
  var until: String?
  @Option(
    name: .long,
    help: ArgumentHelp("text (default), jsonl, csv or markdown.", valueName: "FORMAT"))
  var format: String?

  /// How many entries without `-n` when no filter chooses them.
  static let defaultLimit = 20

  /// What the options ask for; a bad value is a `ValidationError` naming it.
  struct Request {
    var limit: Int
    var filter: HistoryFilter
    var format: HistoryFormat
  }

  func request() throws -> Request {
    var filter = HistoryFilter()
    if let reaction {
      switch reaction.lowercased() {
      case "none": filter.reaction = .some(nil)
      case let name:
        guard let chosen = Reaction(rawValue: name.uppercased()) else {
          throw ValidationError("--reaction must be ctfo, tfu, tifb or none (got '\(reaction)')")
        }
        filter.reaction = .some(chosen)
      }
    }
    if let since {
      guard let start = HistoryDate.start(since) else { throw Self.badDate("--since", since) }
      filter.since = start
    }
    if let until {
      guard let end = HistoryDate.end(until) else { throw Self.badDate("--until", until) }
      filter.before = end
    }
    if let start = filter.since, let end = filter.before, start >= end {
      throw ValidationError("--since must come before --until")
    }
    var chosen = json ? HistoryFormat.jsonl : .text
    if let format {
      guard let named = HistoryFormat(rawValue: format.lowercased()) else {
        throw ValidationError("--format must be text, jsonl, csv or markdown (got '\(format)')")
      }
      guard !json || named == .jsonl else {
        throw ValidationError("--json is --format jsonl: give one or the other")
      }
      chosen = named
    }
    let limit = n ?? (filter.keepsAll ? Self.defaultLimit : .max)
    return Request(limit: limit, filter: filter, format: chosen)
  }

  private static func badDate(_ option: String, _ value: String) -> ValidationError {
    ValidationError(
      "\(option) must be an ISO 8601 date, YYYY-MM-DD, or a time, YYYY-MM-DDThh:mm:ssZ (got '\(value)')")
  }

  func validate() throws {
    guard (n ?? 0) >= 0 else { throw ValidationError("-n must be 0 or more") }
    guard (search?.count ?? 0) <= HistoryBrowser.maxSearchLength else {
      throw ValidationError("--search takes at most \(HistoryBrowser.maxSearchLength) characters")
    }
    _ = try request()
  }

  func run() throws {
    let asked = try request()
    let launch = try Launch(global.values, syncDecks: false)
    let entries = try launch.state.history(
      limit: asked.limit, filter: asked.filter, matching: search)
    let details =
      asked.format.carriesCards ? try launch.state.cardDetails(ids: entries.map(\.cardID)) : [:]
    var writer = HistoryWriter(format: asked.format)
    writer.write(entries, details: details)
    try writer.finish()
  }
}
