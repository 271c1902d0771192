import ArgumentParser
import CommandSupport
import Foundation

/// The `ctfo` command: the interactive app, or one of the subcommands.
@main
struct CTFO: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ctfo",
    abstract: "A terminal card feed: swipe through short cards with the arrow keys.",
    discussion: """
      With no subcommand, ctfo starts the interactive app. Keys: → ← ↑ (or l h k) swipe the card \
      right, left or up; ↓ (or j) opens the history; Enter or Space opens the whole card; u or \
      Backspace undoes the last swipe; s settings; ? help; q quit.

      Files: everything under --home DIR or $CTFO_HOME when given; otherwise the config in \
      $XDG_CONFIG_HOME/ctfo/config.toml, the state in $XDG_STATE_HOME/ctfo/state.sqlite and \
      your own decks (*.jsonl) in $XDG_DATA_HOME/ctfo/decks.
      """,
    subcommands: [Next.self, Types.self, Enable.self, Disable.self, HistoryCommand.self, DeckCommand.self]
  )

  @OptionGroup var global: GlobalOptions

  /// A plain `ctfo next` runs at once (see `NextRequest(quick:)`); everything else goes
  /// through ArgumentParser.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let request = NextRequest(quick: arguments) else { return await main(arguments) }
    do {
      try await request.run()
    } catch {
      exit(withError: error)
    }
  }

  /// The interactive app runs on a thread of its own: its loop blocks in poll(2), which must
  /// not take a thread from the cooperative pool (the card preparations need both cores) nor
  /// from libdispatch's (whose pool monitor then wakes every second to check on it, and the
  /// idle app would not be idle).
  func run() async throws {
    let global = global
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      let loop = Thread {
        do {
          try Interactive.run(global)
          done.resume()
        } catch {
          done.resume(throwing: error)
        }
      }
      loop.name = "ctfo-ui"
      loop.start()
    }
  }
}
