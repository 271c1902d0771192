import App
import ArgumentParser
import CardText
import FeedCore
import Screens

/// `ctfo stats`: the reader's stats as charts, as the app's stats screen (`i`) draws them, or
/// as one JSON object.
struct StatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats", abstract: "Show your reading in charts: swipes a day, reactions, rounds.",
    discussion: """
      Swipes a day for the last 14 days (local time), each type's reactions stacked (CTFO, \
      TFU, TIFB) with their counts, the share liked (CTFO or TFU) and how far through its \
      round the feed is, the most liked type first, and the days in a row with a swipe. \
      Undone swipes do not count. --ascii draws the bars with ASCII characters; W defaults \
      to the terminal's width, else 80. --json prints the same numbers as one object.
      """)

  @OptionGroup var global: GlobalOptions
  @Flag(name: .long, help: "The numbers as one JSON object.") var json = false
  @Option(name: .long, help: "Columns to draw the charts in (at least 20).") var width: Int?

  func validate() throws {
    try SizeOptions.check(width: width, minWidth: Geometry.minimumWidth)
  }

  func run() throws {
    let launch = try Launch(global.values)
    let stats = try launch.readingStats()
    var out = StandardOutput()
    if json {
      out.jsonObject(Self.json(stats))
    } else {
      let columns = width ?? TerminalSize.ofStandardOutput()?.width ?? 80
      for line in Self.text(
        stats, width: columns, ascii: launch.configuration.ascii, mark: launch.mark)
      {
        out.line(line)
      }
    }
    try out.finish()
  }

  /// The stats as the command prints them: the charts `width` columns wide, each line's
  /// trailing blanks dropped.
  static func text(_ stats: ReadingStats, width: Int, ascii: Bool, mark: TruncationMark)
    -> [String]
  {
    StatsScreen.render(stats, width: width, ascii: ascii, mark: mark, colour: false).lines.map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
  }

  /// The stats as `--json` prints them: days oldest first, types the most liked first.
  static func json(_ stats: ReadingStats) -> KeyValuePairs<String, JSONValue> {
    let days: [[(String, JSONValue)]] = stats.days.map {
      [("date", .string($0.date)), ("swipes", .int($0.swipes))]
    }
    let types: [[(String, JSONValue)]] = Geometry.statsTypes(stats).map { type in
      [
        ("type", .string(Sanitizer.sanitizeLine(type.type))),
        ("label", .string(Sanitizer.sanitizeLine(type.label))),
        ("ctfo", .int(type.ctfo)), ("tfu", .int(type.tfu)), ("tifb", .int(type.tifb)),
        ("unswiped", .int(type.unswiped)),
        ("liked_percent", type.likedPercent.map(JSONValue.int) ?? .null),
        ("round_seen", .int(type.roundSeen)), ("cards", .int(type.cards)),
      ]
    }
    return [
      "swipes": .int(stats.swipes), "shown": .int(stats.shown), "streak": .int(stats.streak),
      "days": .objects(days), "types": .objects(types),
    ]
  }
}
