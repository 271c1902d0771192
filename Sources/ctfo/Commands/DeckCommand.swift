import ArgumentParser
import CardText
import CommandSupport
import Store

/// `ctfo deck`: tools for deck files.
struct DeckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deck", abstract: "Work with deck files.", subcommands: [Check.self])

  /// `ctfo deck check FILE...`: validates decks without importing them.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Validate decks: one 'FILE:LINE: message' per problem; exit 1 if any.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Deck files (JSON Lines).") var files: [String]

    func run() throws {
      let report = DeckCheck.check(files)
      for problem in report.problems { Output.warn(problem.description) }
      if !report.problems.isEmpty { throw ExitCode(1) }
      var out = StandardOutput()
      let decks = files.count == 1 ? "1 deck" : "\(files.count) decks"
      let types = report.types.sorted { $0.key < $1.key }.map {
        "\(Sanitizer.sanitizeLine($0.key)) \($0.value)"
      }
      out.line(
        "\(report.cards) cards in \(decks), no problems"
          + (types.isEmpty ? "" : ": " + types.joined(separator: ", ")))
      try out.finish()
    }
  }
}
