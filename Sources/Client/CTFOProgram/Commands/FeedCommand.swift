import ArgumentParser
import CardText
import Decks
import HTTP

#if canImport(Glibc)
  import Glibc
#endif

/// `ctfo feed`: subscriptions to RSS, Atom and JSON feeds, each a deck of its own.
struct FeedCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "feed", abstract: "Subscribe to RSS, Atom and JSON feeds as decks.",
    discussion: """
      Each feed is a card type named after it; its entries are cards. The app fetches feeds \
      in the background (never on a key press), as the feed asks but at most every 15 \
      minutes; `ctfo pull` and `ctfo feed fetch` fetch the feeds that are due now. \
      config.toml's [feeds] table subscribes too: name = "https://...".
      """,
    subcommands: [Add.self, Remove.self, List.self, Import.self, Fetch.self])

  static func book(_ global: GlobalOptions) -> (FeedBook, Paths, Configuration?) {
    let paths = Paths(home: global.values.home)
    let configuration = try? Configuration.load(file: paths.configFile, flags: global.values)
    return (FeedBook(folder: paths.feeds), paths, configuration)
  }

  /// `ctfo feed add URL [--name NAME]`.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Subscribe to a feed (its cards come at the next fetch).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The feed's http:// or https:// address.") var url: String
    @Option(name: .long, help: "The type's name (default: the feed's host).") var name: String?

    func run() throws {
      let (book, _, _) = FeedCommand.book(global)
      let added = try FeedCommand.subscribe(url, name: name, in: book)
      var out = StandardOutput()
      out.line("subscribed to \(Sanitizer.sanitizeLine(url)) as \(added)")
      try out.finish()
    }
  }

  /// Checks `url` and `name`, then adds the subscription; the name used.
  static func subscribe(_ url: String, name given: String?, in book: FeedBook) throws -> String {
    do { _ = try FeedURL(parsing: url) } catch {
      throw CLIError(error.description, exitCode: CLIError.usageExit)
    }
    let name = given ?? FeedDeck.typeName(forURL: url)
    if let problem = DeckName.problem(ofType: name) {
      throw CLIError("--name: \(problem)", exitCode: CLIError.usageExit)
    }
    guard !name.contains("/"), !name.contains(" "), !name.hasPrefix(".") else {
      throw CLIError("--name: a feed's name has no '/', space or leading '.'", exitCode: 64)
    }
    try book.add(FeedBook.Subscription(name: name, url: url))
    return name
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Unsubscribe from a feed; its cards go.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The feed's name (ctfo feed list).") var name: String

    func run() throws {
      let (book, _, _) = FeedCommand.book(global)
      guard try book.remove(name) else {
        throw CLIError("no feed is named \(Sanitizer.sanitizeLine(name))", exitCode: 1)
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "The feeds: name, address, cards, last problem.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let (book, _, configuration) = FeedCommand.book(global)
      var out = StandardOutput()
      for subscription in book.subscriptions(configured: configuration?.feeds ?? [:]) {
        out.line(FeedCommand.describe(subscription, book.state(of: subscription.name)))
      }
      try out.finish()
    }
  }

  /// One line about a feed, its problem included, sanitised.
  static func describe(_ subscription: FeedBook.Subscription, _ state: FeedBook.State) -> String {
    let clean = Sanitizer.sanitizeLine
    var line = "\(clean(subscription.name)) \(clean(subscription.url)): \(state.entries) cards"
    if let success = state.lastSuccess { line += ", fetched \(Timestamp.iso8601(Double(success)))" }
    if let problem = state.problem {
      line +=
        "; failing (\(state.failures)): \(clean(problem)), next try "
        + Timestamp.iso8601(Double(state.nextFetch))
    }
    return line
  }

  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import", abstract: "Subscribe to every feed of an OPML file.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "An OPML file (a feed reader's export).") var file: String

    func run() throws {
      let (book, _, _) = FeedCommand.book(global)
      guard let text = FileText.read(file, limit: XMLReader.sizeLimit) else {
        throw CLIError("cannot read \(file): \(Errors.text(errno))", exitCode: 66)
      }
      let outlines: [OPML.Outline]
      do { outlines = try OPML.feeds(in: Array(text.utf8)) } catch {
        throw CLIError("\(file): \(error.message)", exitCode: 65)
      }
      var out = StandardOutput()
      var taken = Set(book.subscriptions().map(\.name))
      for outline in outlines {
        let base =
          outline.title.flatMap(FeedDeck.typeName(forTitle:))
          ?? FeedDeck.typeName(forURL: outline.url)
        var name = base
        var suffix = 2
        while taken.contains(name) {
          name = "\(base)-\(suffix)"
          suffix += 1
        }
        do {
          let added = try FeedCommand.subscribe(outline.url, name: name, in: book)
          taken.insert(added)
          out.line("subscribed to \(Sanitizer.sanitizeLine(outline.url)) as \(added)")
        } catch {
          Output.warn("\(file): \(Sanitizer.sanitizeLine(outline.url)): \(error)")
        }
      }
      try out.finish()
    }
  }

  struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "fetch", abstract: "Fetch the feeds that are due now (--all: every one).")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Fetch every feed, due or not.") var all = false

    func run() throws {
      let (book, _, configuration) = FeedCommand.book(global)
      let reports = book.refresh(
        book.subscriptions(configured: configuration?.feeds ?? [:]), now: Int64(NextRequest.now()),
        force: all)
      var out = StandardOutput()
      for report in reports { out.line(FeedCommand.describe(report)) }
      try out.finish()
      if reports.contains(where: { $0.problem != nil }) { throw ExitCode(69) }
    }
  }

  static func describe(_ report: FeedBook.Report) -> String {
    let name = Sanitizer.sanitizeLine(report.name)
    if let problem = report.problem { return "\(name): \(Sanitizer.sanitizeLine(problem))" }
    guard let added = report.added else { return "\(name): up to date" }
    return "\(name): \(Plural.count(added, "new card"))"
  }
}
