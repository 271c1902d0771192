import ArgumentParser
import CommandSupport

/// The `ctfo` command: the interactive app, or one of the subcommands.
///
/// One program for everything, linked fully statically without Foundation, so every command
/// starts about as fast as fortune. Its `main` is synchronous: the interactive loop runs on
/// the main thread (it blocks in poll(2), which must not hold a thread of Swift's cooperative
/// pool), and commands that await bridge with `Blocking.wait`.
@main
struct CTFO: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ctfo",
    abstract: "A terminal card feed: swipe through short cards with the arrow keys.",
    // The subcommand is optional: plain `ctfo` starts the app.
    usage: "ctfo [<options>] [<subcommand>]",
    discussion: """
      With no subcommand, ctfo starts the interactive app. Keys: → ← ↑ (or l h k) swipe the card \
      right (TFU), left (TIFB) or up (CTFO), the three reactions; ↓ (or j) opens the history; Enter or Space opens the whole \
      card (answer, source, link), where o opens the link with $BROWSER or xdg-open; u or \
      Backspace undoes the last swipe; s settings; ? help; q quit.

      Files: everything under --home DIR or $CTFO_HOME when given; otherwise the config in \
      $XDG_CONFIG_HOME/ctfo/config.toml, the state in $XDG_STATE_HOME/ctfo/state.sqlite and \
      your own decks (*.jsonl) in $XDG_DATA_HOME/ctfo/decks.
      """,
    version: "0.2.0",
    subcommands: [
      Next.self, Types.self, Enable.self, Disable.self, HistoryCommand.self, DeckCommand.self,
      Pull.self, Status.self,
    ]
  )

  @OptionGroup var global: GlobalOptions

  /// Runs the command; a `CLIError` is one line on stderr and its exit status.
  static func main() {
    suggestCommand(for: Array(CommandLine.arguments.dropFirst()))
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let error as CLIError {
      Output.warn("ctfo: " + error.description)
      exit(withError: ExitCode(error.exitCode))
    } catch {
      exit(withError: error)
    }
  }

  func run() throws {
    try Interactive.run(global)
  }

  /// A first word that is no command but close to one (`ctfo histroy`) gets a suggestion
  /// instead of ArgumentParser's "Unexpected argument"; exit status 64 (EX_USAGE) as its.
  private static func suggestCommand(for arguments: [String]) {
    guard let word = arguments.first, !word.hasPrefix("-") else { return }
    let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    guard !names.contains(word), let near = Spelling.nearest(word, among: names) else { return }
    Output.warn("ctfo: unknown command '\(word)'; did you mean '\(near)'? See 'ctfo --help'.")
    exit(withError: ExitCode(64))
  }
}
