import ArgumentParser
import CardText
import FeedPipeline

/// `ctfo types`: every card type with its setting and number of cards.
struct Types: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "types", abstract: "List the card types: name, label, enabled, number of cards.")

  @OptionGroup var global: GlobalOptions
  @Flag(name: .long, help: "One JSON object per type and line.") var json = false

  func run() throws {
    let launch = try Launch(global.values)
    let disabled = try launch.state.disabledTypes()
    var out = StandardOutput()
    for entry in try launch.types().catalog {
      let type = entry.type
      let enabled = !disabled.contains(type.name)
      if json {
        // Deck text is untrusted in JSON too: a reader may print it to a terminal.
        let clean = { (text: String?) in text.map(Sanitizer.sanitizeLine) }
        out.jsonObject([
          "name": .string(clean(type.name)), "label": .string(clean(type.label)),
          "enabled": .bool(enabled), "cards": .int(entry.cards),
          "colour": .string(clean(type.colour)), "description": .string(clean(type.description)),
        ])
      } else {
        let name = Sanitizer.sanitizeLine(type.name)
        let label = Sanitizer.sanitizeLine(type.label)
        let padded = name + String(repeating: " ", count: max(1, 12 - DisplayWidth.of(name)))
        out.line("[\(enabled ? "x" : " ")] \(padded)\(String(entry.cards).leftPad(7))  \(label)")
      }
    }
    try out.finish()
  }
}

extension String {
  func leftPad(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }

  func rightPad(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
