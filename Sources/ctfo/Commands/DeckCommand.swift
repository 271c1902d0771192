import ArgumentParser
import CardStore

/// `ctfo deck`: tools for deck files.
struct DeckCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deck", abstract: "Work with deck files.", subcommands: [Check.self])

  /// `ctfo deck check FILE...`: validates decks without importing them.
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Validate decks: one 'FILE:LINE: message' per problem; exit 1 if any.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Deck files (JSON Lines).") var files: [String]

    func run() async throws {
      var problems = 0
      for file in files {
        let report = DeckValidator.check(path: file)
        for problem in report.problems { Output.warn(problem.description) }
        problems += report.problems.count
      }
      if problems > 0 { throw ExitCode(1) }
    }
  }
}
