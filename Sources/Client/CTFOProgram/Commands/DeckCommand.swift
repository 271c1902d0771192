import App
import ArgumentParser
import CardPreparation
import CardText
import Decks
import FeedCore
import Screens
import Store

/// `ctfo deck`: tools for deck files.
struct DeckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deck", abstract: "Work with deck files.",
    subcommands: [Check.self, Preview.self])

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

  /// `ctfo deck preview FILE`: each card drawn as the app draws it, for a deck's author.
  struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Draw each card of a deck as the app draws it, then its whole view.",
      discussion: """
        Problems come first, one 'FILE:LINE: message' each, as deck check words them; then, \
        for each card that loads, the feed's screen and, when the card has more to show (an \
        answer, a link, text cut to fit), its whole view, as text. W and H default to the \
        terminal's size, else 80 by 24. --ascii draws the borders and marks in ASCII. The exit \
        status is 1 when the deck has a problem, as with deck check.
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A deck file (JSON Lines).") var file: String
    @Option(name: .long, help: "Only the card with this id.") var id: String?
    @Option(name: .long, help: "Columns of the screen.") var width: Int?
    @Option(name: .long, help: "Lines of the screen.") var height: Int?

    func validate() throws {
      try SizeOptions.check(width: width, height: height)
    }

    func run() throws {
      let contents = DeckCheck.read([file])
      var out = StandardOutput()
      // Deck problems quote the deck's text: sanitised, as `deck check` writes them.
      for problem in contents.report.problems {
        out.line(Sanitizer.sanitizeLine(problem.description))
      }
      let cards = contents.cards.enumerated().filter { id == nil || $0.element.id == id }
      if let id, cards.isEmpty {
        throw CLIError("\(file): no card has the id \"\(Sanitizer.sanitizeLine(id))\"")
      }
      let terminal = TerminalSize.ofStandardOutput()
      let size = (width: width ?? terminal?.width ?? 80, height: height ?? terminal?.height ?? 24)
      let configuration = try Configuration.load(
        file: Paths(home: global.values.home).configFile, flags: global.values)
      for (index, card) in cards {
        out.line("== \(Sanitizer.sanitizeLine(card.id)) (card \(index + 1) of \(contents.cards.count))")
        for screen in DeckPreview.screens(
          of: card, position: index, types: contents.types, width: size.width,
          height: size.height, ascii: configuration.ascii)
        {
          for line in screen { out.line(line) }
        }
      }
      try out.finish()
      if !contents.report.problems.isEmpty { throw ExitCode(1) }
    }
  }
}

/// The screens `ctfo deck preview` prints for a card: the feed's, and its whole view when it
/// has more to show; each as the app renders it, a line of text per row.
enum DeckPreview {
  /// `position` is the card's history row, 0 for the first (drawn `#1`).
  static func screens(
    of card: Card, position: Int, types: [CardType], width: Int, height: Int, ascii: Bool
  ) -> [[String]] {
    let mark: TruncationMark = ascii ? .ascii : .ellipsis
    var state = AppState(width: width, height: height, mark: mark, ascii: ascii)
    state.types = Dictionary(types.map { ($0.name, $0) }) { first, _ in first }
    let area = Geometry.textArea(width: width, height: height)
    let prepared = Preparation.laidOut(Preparation.sanitized(card), for: area, mark: mark)
    state.feed = .card(ShownCard(prepared: prepared, position: position))
    var screens = [render(state)]
    _ = state.reduce(.key(.enter))
    if case .fullCard = state.mode { screens.append(render(state)) }
    return screens
  }

  private static func render(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }
}
