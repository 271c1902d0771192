import App
import ArgumentParser
import CardText
import Store

/// `ctfo history`: the cards shown, newest first, numbered from 1 as the app's `#1`.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "List the cards shown, newest first.")

  @OptionGroup var global: GlobalOptions
  // No default value of its own: see `Next.n`.
  @Option(
    name: .short, parsing: .unconditional,
    help: "How many entries (default \(Self.defaultLimit)).")
  var n: Int?

  @Flag(name: .long, help: "One JSON object per entry and line.") var json = false
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Only the cards whose title or text holds TEXT (ASCII letters in either case), among the newest \(StateStore.searchDepth) shown.",
      valueName: "TEXT"))
  var search: String?

  /// How many entries without `-n`.
  static let defaultLimit = 20
  private var limit: Int { n ?? Self.defaultLimit }

  func validate() throws {
    guard limit >= 0 else { throw ValidationError("-n must be 0 or more") }
    guard (search?.count ?? 0) <= HistoryBrowser.maxSearchLength else {
      throw ValidationError("--search takes at most \(HistoryBrowser.maxSearchLength) characters")
    }
  }

  func run() throws {
    let launch = try Launch(global.values, syncDecks: false)
    var out = StandardOutput()
    let entries =
      try search.map { try launch.state.history(limit: limit, matching: $0) }
      ?? launch.state.history(limit: limit)
    for entry in entries {
      let number = entry.index + 1
      let time = Timestamp.iso8601(entry.shownAt)
      if json {
        out.jsonObject([
          "index": .int(number), "id": .string(entry.cardID), "type": .string(entry.type),
          "title": .string(entry.title), "shown_at": .string(time),
          "reaction": .string(entry.reaction?.rawValue),
        ])
      } else {
        let reaction = entry.reaction?.rawValue ?? "-"
        out.line(
          "\(String(number).leftPad(6))  \(time)  \(reaction.rightPad(4))  "
            + Sanitizer.sanitizeLine("\(entry.type): \(entry.title ?? entry.cardID)"))
      }
    }
    try out.finish()
  }
}
