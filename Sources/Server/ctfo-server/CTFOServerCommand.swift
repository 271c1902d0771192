import ArgumentParser
import CTFOServer
import CTFOWire
import Decks
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
  import Glibc
#endif

/// `ctfo-server`: the reference CTFO server (openapi.yaml) on the given decks.
@main
struct CTFOServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ctfo-server",
    abstract: "The CTFO server: cards, scores and notifications for ctfo clients.",
    discussion: """
      Serves the cards of the decks it is given (the bundled decks by default) from a store \
      under --data, or in PostgreSQL with --store postgres://USER@HOST:PORT/DB (several \
      servers may share one); `ctfo-server migrate` brings a store's schema up to date. \
      Operators change scores and send notifications with `ctfo-server score` \
      and `ctfo-server notify`, and set a user's status with `ctfo-server status`, which write \
      the same store while the server runs; `ctfo-server events` counts the analytics events \
      received.
      """,
    version: Release.line,
    subcommands: [
      Serve.self, Score.self, Notify.self, UserStatus.self, Events.self, Migrate.self,
      Simulate.self,
    ],
    defaultSubcommand: Serve.self)

  /// Runs the command; a `Refusal` is one line on stderr and its exit status.
  static func main() async {
    if Release.asksForVerbose(Array(CommandLine.arguments.dropFirst())) {
      return print(Release.verbose)
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch let refusal as Refusal {
      FileHandle.standardError.write(Data("ctfo-server: \(refusal.message)\n".utf8))
      Foundation.exit(refusal.exitCode)
    } catch let error as CardStoreError {
      FileHandle.standardError.write(Data("ctfo-server: \(error)\n".utf8))
      Foundation.exit(error.exitCode)
    } catch {
      exit(withError: error)
    }
  }
}

/// Where the store lives.
struct DataOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store's folder (default: $XDG_DATA_HOME/ctfo-server, else ~/.local/share/ctfo-server).",
      valueName: "DIR"))
  var data: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A PostgreSQL store instead of --data: postgres://USER[:PASSWORD]@HOST[:PORT]/DB "
        + "(default: $CTFO_SERVER_STORE, else the SQLite store under --data).",
      valueName: "URL"))
  var store: String?

  /// The PostgreSQL URL named, if any.
  var storeURL: String? {
    store
      ?? ProcessInfo.processInfo.environment["CTFO_SERVER_STORE"].flatMap {
        $0.isEmpty ? nil : $0
      }
  }

  func validate() throws {
    if store != nil, data != nil {
      throw ValidationError("--store and --data name two stores: give one")
    }
  }

  /// Opens the store, migrated to this build's schema, and runs `body` with it; a store a newer
  /// ctfo-server migrated is refused (`CardStoreError`).
  func withStore<T>(_ body: (any CardStore) async throws -> T) async throws -> T {
    guard let url = data == nil ? storeURL : nil else {
      let folder = data ?? Self.defaultFolder()
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      return try await body(try SQLiteCardStore(path: folder + "/server.sqlite"))
    }
    let store: PostgresCardStore
    do {
      store = try await PostgresCardStore.open(url: url)
    } catch let error as CardStoreError {
      throw error
    } catch {
      throw Refusal("cannot open the store: \(String(reflecting: error))", exitCode: 69)
    }
    do {
      let result = try await body(store)
      await store.close()
      return result
    } catch {
      await store.close()
      throw error
    }
  }

  private static func defaultFolder() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/ctfo-server" }
    return (environment["HOME"] ?? ".") + "/.local/share/ctfo-server"
  }
}

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Serve the API (the default).")

  @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
  @Option(name: .long, help: "The port (0: any free one, printed on the first line).")
  var port = 8080
  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp("Deck files to serve (default: the bundled decks).", valueName: "FILE"))
  var deck: [String] = []
  @Option(name: .long, help: "Requests an install may make per minute, whatever its token.")
  var rateLimit = 600
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Requests one address may make per minute (default: ten times --rate-limit).",
      valueName: "N"))
  var addressRateLimit: Int?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Days analytics events are kept (default: for ever); an install left with no event and "
        + "no live token is forgotten.",
      valueName: "DAYS"))
  var eventsRetention: Int?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The Mixpanel project token /import takes as its user (default: /import takes none).",
      valueName: "TOKEN"))
  var mixpanelToken: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The api_secret /mp/collect keeps events for (default: it keeps none).",
      valueName: "SECRET"))
  var gaApiSecret: String?
  @Option(name: .long, help: "Bytes of a card body sent in a pull; longer ones are fetched alone.")
  var pullBodyLimit = 4096
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A file whose first line is the token GET /dashboard asks for, 16 characters or more "
        + "(default: no one may see the dashboard).",
      valueName: "FILE"))
  var adminTokenFile: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "What the log on stderr holds: trace, debug (a line per request), info (a line per start, "
        + "stop and error), notice, warning, error or critical.",
      valueName: "LEVEL"))
  var logLevel = "info"
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The address of a reverse proxy in front of the server (again for each); from it the "
        + "client's address, for the rate per address, is the right-most of X-Forwarded-For "
        + "that is not a trusted proxy (default: none, the peer's address).",
      valueName: "ADDR"))
  var trustedProxy: [String] = []
  /// The test fault switch (CTFOServer's `Faults`): for tests only, so not in --help.
  // Debug builds only: a release build has no such option (what a test switches on must not
  // be reachable on a server that was shipped).
  #if DEBUG
    @Flag(name: .long, help: .hidden) var testFaults = false
  #endif
  @OptionGroup var data: DataOptions

  func validate() throws {
    guard rateLimit > 0, addressRateLimit.map({ $0 > 0 }) ?? true else {
      throw ValidationError("a rate limit must be at least 1")
    }
    for address in trustedProxy where !Self.isAddress(address) {
      throw ValidationError("--trusted-proxy \(address) is not an IPv4 or IPv6 address")
    }
    guard eventsRetention.map({ (1...36_500).contains($0) }) ?? true else {
      throw ValidationError("--events-retention must be 1 to 36500 days")
    }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level must be one of "
          + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
    }
  }

  /// Whether `text` is an IPv4 or IPv6 address, as a peer's address is written.
  static func isAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }

  /// How long requests in flight may take to finish after SIGTERM or SIGINT, before they are
  /// cancelled: a client trickling a body must not keep a stopped server alive.
  static let drainDeadline = Duration.seconds(5)

  func run() async throws {
    Self.raiseOpenFileLimit()
    let admin: [UInt8]?
    do {
      admin = try adminTokenFile.map(AdminToken.hash(fromFile:))
    } catch {
      FileHandle.standardError.write(Data("ctfo-server: \(error)\n".utf8))
      throw ExitCode(66)
    }
    try await data.withStore { try await serve(store: $0, admin: admin) }
  }

  private func serve(store: any CardStore, admin: [UInt8]?) async throws {
    let decks =
      deck.isEmpty
      ? DeckFolders.jsonl(
        in: DeckFolders.bundled(
          environment: { ProcessInfo.processInfo.environment[$0] },
          executable: DeckFolders.executablePath()
        ).folder) : deck
    let contents = DeckCheck.read(decks)
    for problem in contents.report.problems {
      FileHandle.standardError.write(Data("ctfo-server: \(problem)\n".utf8))
    }
    let loaded = try await store.load(
      cards: contents.cards.map {
        Wire.Card(
          id: $0.id, type: $0.type, title: $0.title, body: $0.body, source: $0.source,
          url: $0.url, reveal: $0.reveal)
      },
      types: contents.types.map {
        Wire.CardType(
          name: $0.name, label: $0.label, colour: $0.colour, description: $0.description)
      })
    var logger = Logger(label: "ctfo-server")
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    logger.info(
      "decks loaded: \(contents.cards.count) cards (\(loaded.added) new, \(loaded.changed) changed, \(loaded.removed) removed)"
    )
    var settings = ServerSettings()
    settings.requestsPerMinute = rateLimit
    settings.requestsPerMinutePerAddress = addressRateLimit
    settings.eventsRetention = eventsRetention.map { Int64($0) * 24 * 3600 * 1000 }
    settings.mixpanelToken = mixpanelToken
    settings.gaAPISecret = gaApiSecret
    settings.pullBodyLimit = pullBodyLimit
    #if DEBUG
      settings.testFaults = testFaults
    #endif
    settings.adminTokenHash = admin
    settings.trustedProxies = Set(trustedProxy)
    // A database on another machine may stop answering: its calls end by a deadline.
    let served = (store as? PostgresCardStore)?.guarded() ?? store
    let service = Routes.service(
      store: served, settings: settings, serverName: "ctfo-server", logger: logger)
    let app = Application(
      router: service.router, server: service.server,
      configuration: .init(
        address: .hostname(host, port: port), serverName: "ctfo-server",
        availableConnectionsDelegate: ConnectionLimit.forOpenFileLimit(logger: logger)),
      onServerRunning: { channel in
        let address = channel.localAddress
        let line = "listening on \(host):\(address?.port ?? port)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
      },
      logger: logger)
    // Each install's next cards, made off the request path after its reactions and its auth,
    // and for the installs active lately as everyone's reactions move the evidence.
    let scoring = (store as? any ScoringStore).map { scoring in
      Task { [clock = settings.clock] in await BackgroundScoring.run(store: scoring, clock: clock) }
    }
    defer { scoring?.cancel() }
    var group = ServiceGroupConfiguration(
      services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = Self.drainDeadline
    group.maximumCancellationDuration = Self.drainDeadline
    do {
      try await ServiceGroup(configuration: group).run()
      logger.info("stopped")
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
      throw Refusal(
        "cannot listen on \(host):\(port): the address is in use (another server there?); "
          + "choose another with --port", exitCode: 69)
    }
  }

  /// Raises the soft limit of open files to the hard one: every connection takes one, and a
  /// soft limit of 1,024 (systemd's default) would stop accepting long before memory runs out.
  private static func raiseOpenFileLimit() {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = min(limit.rlim_max, 1 << 20)
    _ = setrlimit(resource, &limit)
  }
}

/// A command that cannot do its work: one line on stderr, "ctfo-server: ..." and the exit
/// status (sysexits), never the usage, which is for a command line that is wrong.
struct Refusal: Error {
  let message: String
  let exitCode: Int32

  init(_ message: String, exitCode: Int32) {
    self.message = message
    self.exitCode = exitCode
  }
}

struct Score: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Set a card's score (higher is dealt sooner in the hot feed).")

  @Argument(help: "The card's id.") var card: String
  @Argument(help: "The score.") var score: Double
  @OptionGroup var data: DataOptions

  func run() async throws {
    guard score.isFinite else { throw ValidationError("the score must be a finite number") }
    let time = Int64(Date().timeIntervalSince1970 * 1000)
    guard try await data.withStore({ try await $0.score(cardId: card, score: score, at: time) })
    else { throw Refusal("no card \(card) in the store", exitCode: 65) }
  }
}

struct Notify: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Send a notification to every user.")

  @Argument(help: "The text (one line, at most 500 characters).") var text: String
  @OptionGroup var data: DataOptions

  func run() async throws {
    guard (1...500).contains(text.count), !text.contains(where: \.isNewline) else {
      throw ValidationError("the text must be one line of 1 to 500 characters")
    }
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    try await data.withStore { try await $0.notify(id: "n\(now)", text: text, at: now) }
  }
}

/// `ctfo-server status INSTALL TEXT`: the user status pulls send to one install.
struct UserStatus: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Set the user status sent to one install (\"active\" unless set).",
    discussion: "The install id is the one `ctfo status` prints on the user's machine.")

  @Argument(help: "The install's id.") var install: String
  @Argument(help: "The status (one word or line, 1 to 64 printable characters).") var text: String
  @OptionGroup var data: DataOptions

  func run() async throws {
    guard (1...64).contains(text.count),
      text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
    else { throw ValidationError("the status must be 1 to 64 printable characters") }
    guard try await data.withStore({ try await $0.setStatus(install: install, to: text) }) else {
      throw Refusal("no install \(install) in the store", exitCode: 65)
    }
  }
}

/// `ctfo-server events`: the count of each analytics event name received, one `NAME COUNT` a
/// line.
struct Events: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the count of each analytics event name received, one 'NAME COUNT' a line.",
    discussion: """
      Each event is counted once however often it came (the store keeps one per sender and \
      $insert_id). A name is printed made safe for a terminal, on one line, in double quotes \
      (\\" and \\\\ inside) when it holds a space, a quote or a backslash, so the count is \
      always the last column. \
      --sink mixpanel or ga counts what came to the Mixpanel /import or GA /mp/collect routes.
      """)

  @Option(name: .long, help: "ctfo (POST /v1/events), mixpanel (/import) or ga (/mp/collect).")
  var sink = "ctfo"
  @OptionGroup var data: DataOptions

  func run() async throws {
    guard ["ctfo", "mixpanel", "ga"].contains(sink) else {
      throw ValidationError("--sink must be ctfo, mixpanel or ga")
    }
    let report = try await data.withStore { try await $0.eventReport(sink: sink) }
    FileHandle.standardOutput.write(Data(report.utf8))
  }
}

/// `ctfo-server migrate`: applies the store's migrations not yet applied (each server also
/// does when it starts), so that servers of a newer build can start on it.
struct Migrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Bring the store's schema up to this version's; prints the schema version.",
    discussion: """
      Migrations are versioned; on PostgreSQL every process that migrates takes one lock, so \
      servers starting together migrate once. A store migrated by a newer ctfo-server is \
      refused (exit status 78), by this command and by `serve`.
      """)

  @OptionGroup var data: DataOptions

  func run() async throws {
    let version = try await data.withStore { store in
      store is PostgresCardStore
        ? PostgresCardStore.schemaVersion : SQLiteCardStore.schemaVersion
    }
    FileHandle.standardOutput.write(Data("schema version \(version)\n".utf8))
  }
}
