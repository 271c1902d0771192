import ArgumentParser
import CardText
import CommandSupport
import Store

/// `ctfo history`: the cards shown, newest first, numbered from 1 as the app's `#1`.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "List the cards shown, newest first.")

  @OptionGroup var global: GlobalOptions
  @Option(name: .short, parsing: .unconditional, help: "How many entries.") var n = 20

  func validate() throws {
    guard n >= 0 else { throw ValidationError("-n must be 0 or more") }
  }
  @Flag(name: .long, help: "One JSON object per entry and line.") var json = false

  func run() throws {
    let launch = try Launch(global.values, syncDecks: false)
    var out = StandardOutput()
    for entry in try launch.state.history(limit: max(n, 0)) {
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
