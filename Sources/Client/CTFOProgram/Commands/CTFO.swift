import ArgumentParser
import CTFOWire
import FeedCore
import Synchronization

/// The `ctfo` command: the interactive app, or one of the subcommands.
///
/// One program for everything, linked fully statically without Foundation, so every command
/// starts about as fast as fortune. Its `main` is synchronous: the interactive loop runs on
/// the main thread (it blocks in poll(2), which must not hold a thread of Swift's cooperative
/// pool), and commands that await bridge with `Blocking.wait`. The `ctfo` executable's entry
/// point calls `main()`.
public struct CTFO: ParsableCommand {
  /// The configuration, marked as a plugin's while a command line that asks for no completion
  /// script is parsed: ArgumentParser then skips its probe for `--generate-completion-script`,
  /// which parses the line twice more as two pseudo-commands and costs every command a
  /// noticeable share of its start-up in the runtime's conformance look-ups
  /// (DECISIONS.md, "Start-up"). The mark is off again before anything prints a usage line
  /// (the plugin's name would prefix it).
  public static var configuration: CommandConfiguration {
    var configuration = plainConfiguration
    if skipsCompletionProbe.load(ordering: .relaxed) { configuration._superCommandName = "" }
    return configuration
  }

  private static let skipsCompletionProbe = Atomic(false)

  private static let plainConfiguration = CommandConfiguration(
    commandName: "ctfo",
    abstract: "A terminal card feed: swipe through short cards with the arrow keys.",
    // The subcommand is optional: plain `ctfo` starts the app.
    usage: "ctfo [<options>] [<subcommand>]",
    discussion: """
      With no subcommand, ctfo starts the interactive app. Keys: → ← ↑ (or l h k) swipe the card \
      right (TFU, \(Reaction.tfu.meaning)), left (TIFB, \(Reaction.tifb.meaning)) or up (CTFO, \
      \(Reaction.ctfo.meaning)), the three reactions; ↓ (or j) opens the history; Enter or Space \
      opens the whole card (answer, source, link), where o opens the link with $BROWSER or \
      xdg-open, and → ← still swipe; u or Backspace undoes the last swipe; s settings; i your \
      stats; ? help; q quit. Where the terminal reports the mouse (mouse = false turns it off), \
      drag the card a third of its width, or up, to swipe it, click it to open it, click a hint \
      to run it; the wheel scrolls.

      Files: everything under --home DIR or $CTFO_HOME when given; otherwise the config in \
      $XDG_CONFIG_HOME/ctfo/config.toml, the state in $XDG_STATE_HOME/ctfo/state.sqlite and \
      your own decks (*.jsonl) in $XDG_DATA_HOME/ctfo/decks.
      """,
    version: Release.line,
    subcommands: [
      Next.self, Types.self, Enable.self, Disable.self, HistoryCommand.self, DeckCommand.self,
      Pull.self, Status.self, StatsCommand.self, FeedCommand.self,
    ]
  )

  @OptionGroup var global: GlobalOptions

  public init() {}

  /// Runs the command; a `CLIError` is one line on stderr and its exit status.
  public static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    // `ctfo next` as a shell's start-up file runs it: the same request and code, no parse.
    if let request = NextHotPath.request(arguments) {
      return reportingErrors { try Next.run(request) }
    }
    if Release.asksForVerbose(arguments) { return print(Release.verbose) }
    suggestCommand(for: arguments)
    reportingErrors {
      var command = try parseSkippingTheCompletionProbe(arguments)
      try command.run()
    }
  }

  /// Runs `body`; a `CLIError` is one line on stderr and its exit status.
  private static func reportingErrors(_ body: () throws -> Void) {
    do {
      try body()
    } catch let error as CLIError {
      Output.warn("ctfo: " + error.description)
      exit(withError: ExitCode(error.exitCode))
    } catch {
      exit(withError: error)
    }
  }

  public func run() throws {
    try Interactive.run(global)
  }

  /// `parseAsRoot`, without ArgumentParser's completion-script probe unless an argument asks
  /// for a script (`--generate-completion-script`, with or without `=SHELL`).
  static func parseSkippingTheCompletionProbe(_ arguments: [String]) throws -> ParsableCommand {
    let asksForScript = arguments.contains { $0.hasPrefix("--generate-completion-script") }
    skipsCompletionProbe.store(!asksForScript, ordering: .relaxed)
    defer { skipsCompletionProbe.store(false, ordering: .relaxed) }
    return try parseAsRoot(arguments)
  }

  /// A first word that is no command but close to one (`ctfo histroy`) gets a suggestion
  /// instead of ArgumentParser's "Unexpected argument"; exit status 64 (EX_USAGE) as its.
  private static func suggestCommand(for arguments: [String]) {
    guard let word = arguments.first, !word.hasPrefix("-") else { return }
    let names = plainConfiguration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    guard !names.contains(word), let near = Spelling.nearest(word, among: names) else { return }
    Output.warn("ctfo: unknown command '\(word)'; did you mean '\(near)'? See 'ctfo --help'.")
    exit(withError: ExitCode(64))
  }
}
