import CTFOWire

/// What the server keeps: cards, types, scores, tokens and notifications, each change stamped
/// with a revision so that a pull sends only what changed since the client's cache key.
///
/// The server sees a store through the parts its callers need: `PullStore` (the pull and the
/// card routes), `TokenStore` (auth), `EventStore` (the analytics routes), `RequestCountStore`
/// (the rate limit shared by several processes), `OperatorStore` (`ctfo-server`'s commands and
/// the housekeeping prune) and `ReportStore` (the dashboard, `ctfo-server events`, tests).
/// SQLite serves one process, PostgreSQL several. The methods are async because PostgreSQL's
/// client is; the SQLite store answers them at once.
public protocol CardStore:
  PullStore, TokenStore, EventStore, RequestCountStore, OperatorStore, ReportStore
{}

/// What a pull and `GET /v1/cards/{id}` read.
public protocol PullStore: Sendable {
  /// The change since `revision` (everything when nil), in the order of `feed`, with the
  /// scores made for `install` from its reactions.
  func changes(since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?)
    async throws
    -> Changes
  /// What only `install` receives in a full pull of `feed`, beside what every client does
  /// (`changes(since: nil, ..., install: nil)`): its own scores (`hot`) and its status.
  func ownChanges(install: String, feed: PullFeed) async throws -> Changes
  /// The revision of what `install` receives in a pull of `feed`: the one its cache key names.
  /// It moves only when that changes, never with another install's scores. With no install,
  /// the revision of what every client receives.
  func revision(install: String?, feed: PullFeed) async throws -> Int64
  /// A random value made once per store: cache keys of another store are unknown here.
  func epoch() async throws -> String
  /// One card whole, nil when there is none (or it was removed).
  func card(id: String) async throws -> Wire.Card?

  // What a pull needs, answered at once on the thread that asks (a server's event loop) by a
  // store that can: nil when the store would have to wait (or fails), and the pull then asks
  // the methods above.
  func epochAtOnce() -> String?
  func revisionAtOnce(install: String?, feed: PullFeed) -> Int64?
  /// `revision`: the pull's, as `revisionAtOnce` gave it.
  func ownChangesAtOnce(install: String, feed: PullFeed, revision: Int64) -> Changes?
}

/// The tokens `POST /v1/auth` issues and every other route checks.
public protocol TokenStore: Sendable {
  /// Stores a token's hash for an install, revoking the install's older one; returns the
  /// distinct id of the install.
  func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) async throws -> String
  /// The install a token's hash belongs to, if it has not expired at `time`.
  func install(forToken hash: [UInt8], at time: Int64) async throws -> String?
  /// `install(forToken:at:)` answered at once, as `PullStore`'s `AtOnce` methods are: nil
  /// when the store would have to wait, or the token is not known to be valid.
  func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String?
}

/// What the analytics routes store.
public protocol EventStore: Sendable {
  /// Stores analytics events, each once per sink, sender and `$insert_id` (a copy counts in
  /// `copies`); the sender is `install` (whose distinct id the events get) or else the
  /// event's `distinct_id`. The CTFO sink's final reactions from `install` become its scores.
  func record(events: [ReceivedEvent], install: String?, at time: Int64) async throws
  /// Counts what `sink` refused for the dashboard: `records` refused in a request that was
  /// read, `requests` refused whole.
  func countRefused(sink: String, records: Int, requests: Int) async throws
}

/// Requests counted across server processes, for a rate limit per install (`SharedRates`).
public protocol RequestCountStore: Sendable {
  /// Whether several server processes count requests together in this store
  /// (`addRequestCounts`), for a rate limit per install across them all.
  var sharesRequestCounts: Bool { get }
  /// Adds this process's requests of each install in the minute from `window` (milliseconds
  /// since the epoch, a whole minute) to the store's counts; returns the totals of every process.
  func addRequestCounts(_ counts: [String: Int], window: Int64) async throws -> [String: Int]
}

/// What the operator changes (`ctfo-server load`, `score`, `status`, `notify`), and the prune
/// the server's housekeeping runs.
public protocol OperatorStore: Sendable {
  /// Brings the stored cards and types to the decks': new and changed ones get a new
  /// revision, cards the decks no longer hold are removed.
  func load(cards: [Wire.Card], types: [Wire.CardType]) async throws -> LoadReport
  /// Sets a card's score, stated now.
  func score(cardId: String, score: Double, at time: Int64) async throws -> Bool
  /// Sets the user status pulls send to `install` (and marks a change, so its next pull is
  /// not a `304`); false when the store knows no such install.
  func setStatus(install: String, to status: String) async throws -> Bool
  /// Adds a notification for every user.
  func notify(id: String, text: String, at time: Int64) async throws
  /// Deletes the tokens expired at `time`, the events received before `eventsBefore` (none when
  /// nil), then every install left with neither, and what it alone had (its reactions and
  /// scores): a client that comes back later starts as a new install.
  func prune(at time: Int64, eventsBefore: Int64?) async throws -> PruneReport
}

/// What is read back of the events: the dashboard, `ctfo-server events`, the tests.
public protocol ReportStore: Sendable {
  /// The events stored for `sink`, in the order they first came.
  func events(sink: String) async throws -> [ReceivedEvent]
  /// How many events of each name `sink` holds, one `NAME COUNT` a line, by name (what
  /// `ctfo-server events` prints), each name made safe for a terminal and one line.
  func eventReport(sink: String) async throws -> String
  /// The dashboard's numbers at `time`, from the aggregates kept as events arrive; the top
  /// cards are those with at least `minReactions` reactions.
  func dashboard(at time: Int64, minReactions: Int) async throws -> DashboardData
}

extension PullStore {
  public func epochAtOnce() -> String? { nil }
  public func revisionAtOnce(install: String?, feed: PullFeed) -> Int64? { nil }
  public func ownChangesAtOnce(install: String, feed: PullFeed, revision: Int64) -> Changes? {
    nil
  }

  /// From two whole pulls, one with the install's part and one without: a store may answer
  /// it with a query of its own.
  public func ownChanges(install: String, feed: PullFeed) async throws -> Changes {
    let shared = try await changes(since: nil, feed: feed, bodyLimit: 0, install: nil)
    let whole = try await changes(since: nil, feed: feed, bodyLimit: 0, install: install)
    var own = Changes(full: true)
    own.scores = Array(whole.scores.dropFirst(shared.scores.count))
    own.userStatus = whole.userStatus
    return own
  }
}

extension TokenStore {
  public func installAtOnce(forToken hash: [UInt8], at time: Int64) -> String? { nil }
}

extension RequestCountStore {
  public var sharesRequestCounts: Bool { false }
  public func addRequestCounts(_ counts: [String: Int], window: Int64) async throws
    -> [String: Int]
  { counts }
}
