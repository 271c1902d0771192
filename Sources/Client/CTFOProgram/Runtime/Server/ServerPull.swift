import CTFOClient
import CTFOWire
import HTTP
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// One pull from the configured server into the state database: the session loaded, auth on
/// first need, the change and its cache key applied in one transaction, the outcome noted for
/// `ctfo status`. Blocking: the app runs it on a thread of its own.
///
///     if let pull = ServerPull(configuration: config, database: database) {
///       let outcome = pull.run(deadline: .now + .seconds(10))
///     }
public struct ServerPull: Sendable {
  public let endpoint: Endpoint
  public let feed: PullFeed
  private let client: APIClient
  private let store: ServerStore
  /// Shared by the copies of this pull (the app's link and its analytics sink): pulls and
  /// bodies go at once, `exchange` (analytics) waits for them.
  private let traffic = ServerTraffic()

  /// Nil when no server is configured.
  public init?(
    configuration: Configuration, database: StateDatabase,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds
  ) {
    guard let endpoint = configuration.server else { return nil }
    self.endpoint = endpoint
    feed = configuration.feed
    client = APIClient(
      transport: HTTPTransport(endpoint: endpoint, authorities: configuration.serverAuthorities),
      device: .init(platform: "linux", app: "ctfo/\(Release.version)", locale: Self.locale),
      now: now)
    store = ServerStore(database: database)
  }

  /// What a pull did.
  public enum Outcome: Sendable, Equatable {
    case unchanged
    case applied(ServerStore.Applied)
    case failed(String)
  }

  /// `keepOrdinals`: for the running app (`ServerStore.apply(keepOrdinals:)`).
  public func run(deadline: ContinuousClock.Instant, keepOrdinals: Bool = false) -> Outcome {
    traffic.link { pulled(deadline: deadline, keepOrdinals: keepOrdinals) }
  }

  private func pulled(deadline: ContinuousClock.Instant, keepOrdinals: Bool) -> Outcome {
    let now = APIClient.systemMilliseconds()
    do {
      try store.adopt(feed: feed)
      var session = try store.session(for: endpoint.description)
      let before = session
      do {
        switch try client.pull(feed, session: &session, deadline: deadline) {
        case .unchanged:
          if session != before { try store.save(session) }
          try store.recordPull(at: now, problem: nil)
          return .unchanged
        case .changed(let pull):
          return .applied(
            try store.apply(pull, session: session, at: now, keepOrdinals: keepOrdinals))
        }
      } catch {
        // A new token, or a cache key dropped.
        if session != before { try? store.save(session) }
        try? store.recordPull(at: now, problem: "\(error)")
        return .failed("\(error)")
      }
    } catch {
      return .failed("cannot store the pull: \(error)")
    }
  }

  /// The body of a card a pull sent without it: the one stored (precached) when there is one,
  /// else the server's, stored for the next time.
  public func body(of id: String, deadline: ContinuousClock.Instant) throws -> String {
    if let stored = try store.storedBody(id: id) { return stored }
    let body = try fetchBody(of: id, deadline: deadline)
    try store.saveBody(id: id, body: body)
    return body
  }

  /// What one step of the body precache did.
  public enum PrecacheStep: Sendable, Equatable {
    /// A body came and was stored.
    case stored(id: String)
    /// The fetch failed: the card is left for its preparation.
    case failed(id: String)
    /// No body is missing, or the budget has no room for the next.
    case done
  }

  /// Precaches one body a pull left out (ctfo.md: "a sufficiently large number of cards is
  /// precached", so a card pulled online can be read offline): the next card's to come, unless
  /// the server's card text would take more than `budget` bytes.
  public func precacheOne(
    budget: Int, skipping: Set<String>, deadline: ContinuousClock.Instant
  ) -> PrecacheStep {
    guard let id = try? store.nextMissingBody(skipping: skipping),
      let used = try? store.bodyBytes(), used < budget
    else { return .done }
    do {
      let body = try fetchBody(of: id, deadline: deadline)
      guard used + body.utf8.count <= budget else { return .done }
      try store.saveBody(id: id, body: body)
      return .stored(id: id)
    } catch {
      return .failed(id: id)
    }
  }

  /// A card's body from the server, one request in flight with the link's others.
  private func fetchBody(of id: String, deadline: ContinuousClock.Instant) throws -> String {
    try traffic.link { try fetchedBody(of: id, deadline: deadline) }
  }

  private func fetchedBody(of id: String, deadline: ContinuousClock.Instant) throws -> String {
    var session = try store.session(for: endpoint.description)
    let before = session
    defer { if session.token != before.token { try? store.save(session) } }
    let card = try client.card(id: id, session: &session, deadline: deadline)
    let body = card.body ?? ""
    guard !body.allSatisfy(\.isWhitespace) else { throw APIError.invalid("an empty body") }
    guard body.utf8.count <= ServerStore.cardLimit else {
      throw APIError.invalid("a body \(ServerStore.cardTooLong)")
    }
    return body
  }

  /// Sends `request` to the server with this install's token (one re-auth on `401`) and
  /// returns its answer, whatever its status; once no pull or body is in flight.
  public func exchange(
    _ request: HTTPRequest, deadline: ContinuousClock.Instant
  ) throws -> HTTPResponse {
    try traffic.background {
      var session = try store.session(for: endpoint.description)
      let before = session
      defer { if session != before { try? store.save(session) } }
      return try client.exchange(request, session: &session, deadline: deadline)
    }
  }

  /// The locale of the environment (LC_ALL, LC_MESSAGES, LANG), "C" when none is set.
  public static var locale: String {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = Environment.variable(name), !value.isEmpty {
        return String(value.prefix { $0 != "." && $0 != "@" }.prefix(32))
      }
    }
    return "C"
  }
}
