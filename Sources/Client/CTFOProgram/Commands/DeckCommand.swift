import ArgumentParser
import CardText
import Decks
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

    /// The problems on stderr, then what would load, with or without them.
    func run() throws {
      let report = DeckCheck.check(files)
      for problem in report.problems { Output.warn(problem.description) }
      var out = StandardOutput()
      let problems =
        report.problems.isEmpty ? "no problems" : Plural.count(report.problems.count, "problem")
      let types = report.types.sorted { $0.key < $1.key }.map {
        "\(Sanitizer.sanitizeLine($0.key)) \($0.value)"
      }
      out.line(
        "\(Plural.count(report.cards, "card")) in \(Plural.count(files.count, "deck")), \(problems)"
          + (types.isEmpty ? "" : ": " + types.joined(separator: ", ")))
      try out.finish()
      if !report.problems.isEmpty { throw ExitCode(1) }
    }
  }
}
