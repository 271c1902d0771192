import ArgumentParser
import CTFOClient
import CTFOWire
import CardText
import Store

/// `ctfo pull`: pulls the configured server's cards now.
struct Pull: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pull",
    abstract: "Pull cards, scores and notifications from the CTFO server now.",
    discussion: """
      The server is `server = "URL"` in config.toml or --server URL. The app pulls by itself \
      at launch and every pull-interval seconds; swiping never waits for it.
      """)

  @OptionGroup var global: GlobalOptions
  // No default value of its own: see `Next.n`.
  @Option(name: .long, help: "Seconds to wait for the server (default \(Self.defaultTimeout)).")
  var timeout: Int?

  /// Seconds to wait without `--timeout`.
  static let defaultTimeout = 10

  func run() throws {
    let seconds = timeout ?? Self.defaultTimeout
    guard (1...600).contains(seconds) else {
      throw CLIError("--timeout must be from 1 to 600 seconds (got \(seconds))", exitCode: 64)
    }
    let launch = try Launch(global.values, syncDecks: false)
    // The feeds that are due first: their decks are read at the next launch or live.
    let book = FeedBook(folder: launch.paths.feeds)
    let feeds = book.subscriptions(configured: launch.configuration.feeds)
    let fetched = book.refresh(feeds, now: Int64(NextRequest.now()))
    for report in fetched { print(FeedCommand.describe(report)) }
    if launch.configuration.server == nil, !feeds.isEmpty { return }
    guard let pull = ServerPull(configuration: launch.configuration, database: launch.database)
    else {
      throw CLIError(
        "no server: set server = \"URL\" in \(launch.paths.configFile) or pass --server URL",
        exitCode: CLIError.configExit)
    }
    var out = StandardOutput()
    switch pull.run(deadline: .now + .seconds(seconds)) {
    case .unchanged: out.line("\(pull.endpoint): up to date")
    case .applied(let applied):
      out.line(
        "\(pull.endpoint): \(Plural.count(applied.cards, "card")), \(applied.removed) removed, "
          + Plural.count(applied.scores, "score"))
      for refused in applied.refused { Output.warn("ctfo: left out of the pull: \(refused)") }
    case .failed(let problem):
      throw CLIError("\(pull.endpoint): \(problem)", exitCode: 69)
    }
    try out.finish()
  }
}

/// `ctfo status`: the server, the last pull, the cards held and the notifications.
struct Status: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the server, the last pull, notifications, the reaction hook, analytics queued.")

  @OptionGroup var global: GlobalOptions
  @Flag(name: .long, help: "One JSON object.") var json = false

  func run() throws {
    let launch = try Launch(global.values, syncDecks: false)
    let status = try ServerStore(database: launch.database).status(
      at: APIClient.systemMilliseconds())
    let server = launch.configuration.server?.description
    let clean = { (text: String) in Sanitizer.sanitizeLine(text) }
    let sinks = AnalyticsSinks.configured(launch.configuration)
    let outbox = Outbox(database: launch.database)
    let analytics = try sinks.map { try outbox.status(of: $0.rawValue) }
    let time = { (ms: Int64?) in ms.map { Timestamp.iso8601(Double($0) / 1000) } }
    let hook = launch.configuration.reactionHook
    let hookFailure = hook == nil ? nil : HookFailures.last(at: launch.paths.hookFailure)
    var out = StandardOutput()
    if json {
      out.jsonObject([
        "analytics": .objects(
          analytics.map { sink in
            [
              ("sink", .string(sink.sink)), ("queued", .int(sink.queued)),
              ("delivered", .int(Int(sink.delivered))), ("lastSuccess", .string(time(sink.lastSuccess))),
              ("lastError", .string(sink.lastError.map(clean))), ("lastErrorAt", .string(time(sink.lastErrorAt))),
              ("nextAttempt", .string(time(sink.nextAttempt))), ("deadLetters", .int(sink.deadLetters)),
            ]
          }),
        "server": .string(server),
        "lastPullAt": .string(status.lastPullAt.map { Timestamp.iso8601(Double($0) / 1000) }),
        "lastProblem": .string(status.lastProblem.map(clean)),
        "userStatus": .string(status.userStatus.map(clean)),
        "install": .string(status.installId.map(clean)), "cards": .int(status.cards),
        "notifications": .strings(status.notifications.map(clean)),
        "reactionHook": .string(hook.map(clean)), "hookFailure": .string(hookFailure.map(clean)),
      ])
    } else {
      out.line("server: \(server ?? "none (offline on the decks)")")
      let last = status.lastPullAt.map { Timestamp.iso8601(Double($0) / 1000) } ?? "never"
      out.line("last pull: \(last)" + (status.lastProblem.map { " (\(clean($0)))" } ?? ""))
      out.line("cards from the server: \(status.cards)")
      if let user = status.userStatus { out.line("status: \(clean(user))") }
      if let install = status.installId { out.line("install: \(clean(install))") }
      for note in status.notifications { out.line("notification: \(clean(note))") }
      let book = FeedBook(folder: launch.paths.feeds)
      for feed in book.subscriptions(configured: launch.configuration.feeds) {
        out.line("feed " + FeedCommand.describe(feed, book.state(of: feed.name)))
      }
      if let hook {
        out.line("reaction hook: \(clean(hook))")
        if let hookFailure { out.line("reaction hook failed: \(clean(hookFailure))") }
      }
      if analytics.isEmpty {
        out.line(
          "analytics: " + (launch.configuration.analytics.enabled ? "none configured" : "off"))
      }
      for (kind, sink) in zip(sinks, analytics) {
        var line = "analytics to \(kind.title): \(sink.queued) queued, \(sink.delivered) delivered"
        line += ", last success " + (time(sink.lastSuccess) ?? "never")
        if sink.deadLetters > 0 { line += ", \(sink.deadLetters) dead letters" }
        if let error = sink.lastError, sink.nextAttempt != nil {
          line += "; failing: \(clean(error)), next try \(time(sink.nextAttempt) ?? "now")"
        }
        out.line(line)
      }
    }
    try out.finish()
  }
}
