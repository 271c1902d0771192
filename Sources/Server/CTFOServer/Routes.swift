import CTFOWire
import FeedCore
import FlatJSON
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The settings of a running server.
public struct ServerSettings: Sendable {
  /// How long a token is good for, in milliseconds (30 days).
  public var tokenLifetime: Int64 = 30 * 24 * 3600 * 1000
  /// A card whose body is longer (in bytes) goes in a pull without it: `GET /v1/cards/{id}`.
  public var pullBodyLimit = 4096
  /// Requests an install may make per minute before `429`, whatever its token; and auths.
  public var requestsPerMinute = 600
  /// Requests one address may make per minute before `429`, whatever the install (nil: ten
  /// times `requestsPerMinute`, room for a household behind one address).
  public var requestsPerMinutePerAddress: Int?
  /// How long events are kept, in milliseconds; nil keeps them.
  public var eventsRetention: Int64?
  /// The Mixpanel project token `/import` takes as its basic-auth user; nil takes none.
  public var mixpanelToken: String?
  /// The `api_secret` `/mp/collect` keeps events for; nil keeps none.
  public var gaAPISecret: String?
  /// The wall clock in milliseconds since the epoch: token expiry, rate windows, pruning.
  public var clock: @Sendable () -> Int64 = { Clock.milliseconds() }
  /// The largest request body read (`POST /v1/auth`).
  public var requestBodyLimit = 16 * 1024
  /// The bytes of request bodies held at once, across all requests (past it: `503`).
  public var uploadMemory = 32 << 20
  /// How long a request body may take to arrive once its head has (past it: `408`).
  public var bodyDeadline = Duration.seconds(30)
  /// How long a connection may wait for its next request, or for the rest of a head.
  public var idleTimeout = Duration.seconds(30)
  /// Requests with a body parsed and stored at once: one core is left to the others.
  public var concurrentUploads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
  /// The test fault switch (`Faults`): tests only.
  public var testFaults = false
  /// The counters `/metrics` shows.
  public var metrics = ServerMetrics()

  public init() {}
}

/// The request context: a small body limit for every route.
public struct CTFOContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The connection (the fault switch closes it).
  public let channel: any Channel
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
  public var maxUploadSize: Int { 16 * 1024 }
}

/// The routes of the CTFO API (openapi.yaml): auth, pull, card.
public enum Routes {
  /// `onRequest` sees the path of every request as it arrives (the tests count them).
  /// `faults` is the test fault switch, made when `settings.testFaults` is set and none is given.
  /// `pullCache` keeps full pulls' shared parts (one is made when none is given).
  public static func router(
    store: any CardStore, settings: ServerSettings = ServerSettings(), logRequests: Bool = true,
    faults: Faults? = nil, pullCache: PullCache? = nil,
    onRequest: (@Sendable (String) -> Void)? = nil
  ) -> Router<CTFOContext> {
    let router = Router(context: CTFOContext.self)
    router.add(middleware: RequestMetrics(metrics: settings.metrics))
    if let onRequest { router.add(middleware: RequestObserver(onRequest: onRequest)) }
    if logRequests { router.add(middleware: RequestLogger()) }
    router.add(middleware: HeadWithoutBody())
    let faults = faults ?? (settings.testFaults ? Faults() : nil)
    if let faults {
      router.add(middleware: FaultMiddleware(faults: faults))
      faults.addRoutes(to: router)
    }
    router.add(middleware: ErrorMiddleware(metrics: settings.metrics))
    router.add(
      middleware: UploadLimits(
        budget: UploadBudget(capacity: settings.uploadMemory),
        gate: WorkGate(width: settings.concurrentUploads), largest: EventRoutes.importBodyLimit,
        deadline: settings.bodyDeadline))
    let limits = Limits(settings: settings)
    let housekeeping = Housekeeping(store: store, settings: settings)
    let authorize: @Sendable (Request, CTFOContext) async throws -> String = { request, context in
      try await Self.authorize(request, context, store: store, settings: settings, limits: limits)
    }
    router.post("/v1/auth") { request, context in
      try limits.charge(address: context)
      let answer = try await auth(request, store: store, settings: settings, limits: limits)
      await housekeeping.runIfDue()
      return answer
    }
    let pulls = pullCache ?? PullCache()
    let pullRoute: @Sendable (Request, CTFOContext) async throws -> Response = {
      request, context in
      let install = try await authorize(request, context)
      return try await pull(
        request, store: store, settings: settings, install: install, cache: pulls)
    }
    let cardRoute: @Sendable (Request, CTFOContext) async throws -> Response = {
      request, context in
      _ = try await authorize(request, context)
      // The router splits the raw path, so an id's `%2F` stays within it until decoded here.
      let raw = context.parameters.get("id") ?? ""
      guard let id = raw.removingPercentEncoding else {
        throw APIFailure(.notFound, code: "not_found", message: "no card \(shown(raw))")
      }
      guard let card = try await store.card(id: id) else {
        throw APIFailure(.notFound, code: "not_found", message: "no card \(shown(id))")
      }
      return try json(card)
    }
    // HEAD is GET without the body (`HeadWithoutBody` drops it).
    for method in [HTTPRequest.Method.get, .head] {
      router.on("/v1/pull", method: method, use: pullRoute)
      router.on("/v1/cards/:id", method: method, use: cardRoute)
    }
    EventRoutes.add(
      to: router, store: store, settings: settings, limits: limits, housekeeping: housekeeping,
      authorize: authorize)
    OperatorRoutes.add(to: router, store: store, metrics: settings.metrics)
    return router
  }

  /// The HTTP/1.1 server with the settings' idle timeout, which also ends a head that never
  /// completes, reading each connection in small pieces (`SmallReads`), counting connections.
  public static func server(settings: ServerSettings) -> HTTPServerBuilder {
    let open = settings.metrics.connectionsOpen
    return .http1(
      configuration: .init(
        additionalChannelHandlers: [SmallReads(), ConnectionCount(gauge: open)],
        idleTimeout: TimeAmount(settings.idleTimeout)))
  }

  // MARK: - Auth

  private static func auth(
    _ request: Request, store: any CardStore, settings: ServerSettings, limits: Limits
  ) async throws -> Response {
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: settings.requestBodyLimit)
    } catch is NIOTooManyBytesError {
      throw APIFailure(
        .contentTooLarge, code: "too_large",
        message: "the body is over \(settings.requestBodyLimit) bytes")
    }
    let bytes = Array(buffer: body)
    guard !JSONNesting.exceeds(bytes),
      let auth = try? JSONDecoder().decode(Wire.AuthRequest.self, from: Data(bytes))
    else {
      throw APIFailure(.badRequest, code: "bad_request", message: "the body is not an auth request")
    }
    guard (1...128).contains(auth.installId.utf8.count),
      auth.installId.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
    else {
      throw APIFailure(
        .badRequest, code: "bad_install_id", message: "installId must be 1 to 128 printable ASCII")
    }
    try limits.charge(authOf: auth.installId)
    let now = settings.clock()
    let token = Token.make()
    let expires = now + settings.tokenLifetime
    let distinct = try await store.issueToken(
      hash: token.hash, installId: auth.installId, expiresAt: expires)
    let key = CacheKey(
      epoch: try await store.epoch(), feed: .hot,
      revision: try await store.revision(install: auth.installId, feed: .hot))
    return try json(
      Wire.AuthResponse(
        token: token.text, tokenExpiresAt: expires, cacheKey: key.text, distinctId: distinct,
        serverTime: now))
  }

  /// The install of the request's bearer token; `401` without a good one, `429` past the
  /// address's or the install's rate.
  private static func authorize(
    _ request: Request, _ context: CTFOContext, store: any CardStore, settings: ServerSettings,
    limits: Limits
  ) async throws -> String {
    try limits.charge(address: context)
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
      case let token = String(header.dropFirst(7)), (1...256).contains(token.utf8.count)
    else {
      throw APIFailure(.unauthorized, code: "unauthorized", message: "a bearer token is needed")
    }
    guard let install = try await store.install(forToken: Token.hash(token), at: settings.clock())
    else {
      throw APIFailure(.unauthorized, code: "unauthorized", message: "the token is not valid")
    }
    try limits.charge(install: install)
    return install
  }

  // MARK: - Pull

  /// A full pull is built around the shared part `cache` keeps (`PullBody`); a delta from the
  /// rows stamped after the client's revision. Either in gzip when the request accepts it.
  private static func pull(
    _ request: Request, store: any CardStore, settings: ServerSettings, install: String,
    cache: PullCache
  ) async throws -> Response {
    let feedName = request.uri.queryParameters.get("feed") ?? "hot"
    guard let feed = PullFeed(rawValue: feedName) else {
      throw APIFailure(.badRequest, code: "bad_feed", message: "feed must be hot or recent")
    }
    let epoch = try await store.epoch()
    let revision = try await store.revision(install: install, feed: feed)
    let current = CacheKey(epoch: epoch, feed: feed, revision: revision)
    let held = request.headers[.ifNoneMatch].flatMap(CacheKey.init(header:))
    let gzip = acceptsGzip(request.headers[values: .acceptEncoding])
    var headers = HTTPFields()
    // A gzip body is another representation: its strong ETag says so (`CacheKey` reads both).
    headers[.eTag] = "\"\(current.text)\(gzip ? CacheKey.gzipSuffix : "")\""
    headers[.cacheControl] = "no-cache"
    headers[.vary] = "Accept-Encoding"
    if held == current { return Response(status: .notModified, headers: headers) }
    let since =
      held.flatMap {
        $0.epoch == epoch && $0.feed == feed && $0.revision <= revision ? $0.revision : nil
      }
    var body: ByteBuffer
    if since == nil {
      let shared = try await cache.shared(
        store: store, feed: feed, bodyLimit: settings.pullBodyLimit,
        fromMemory: { settings.metrics.pullsFromMemory.increment() })
      body = try PullBody.full(
        shared: shared, cacheKey: current.text, serverTime: settings.clock(),
        own: try await store.ownChanges(install: install, feed: feed), gzip: gzip)
    } else {
      let changes = try await store.changes(
        since: since, feed: feed, bodyLimit: settings.pullBodyLimit, install: install)
      let json = try PullBody.json(
        Wire.Pull(
          cacheKey: current.text, full: changes.full, serverTime: settings.clock(),
          types: changes.types, cards: changes.cards, removed: changes.removed,
          scores: changes.scores,
          user: Wire.User(
            status: changes.userStatus ?? Changes.defaultStatus,
            notifications: changes.notifications)))
      body = gzip ? try PullBody.gzip(json) : ByteBuffer(bytes: json)
    }
    headers[.contentType] = "application/json"
    if gzip { headers[.contentEncoding] = "gzip" }
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
  }

  /// Whether an `Accept-Encoding` list takes gzip: named (or `*`) with a weight above zero.
  static func acceptsGzip(_ values: [String]) -> Bool {
    var named: Bool?
    var any = false
    for item in values.flatMap({ $0.split(separator: ",") }) {
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let coding = parts.first?.lowercased() else { continue }
      let weight =
        parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }
        .flatMap { Double($0.dropFirst(2)) } ?? 1
      switch coding {
      case "gzip", "x-gzip": named = weight > 0
      case "*": any = weight > 0
      default: continue
      }
    }
    return named ?? any
  }

  // MARK: - Answers

  static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
    let data = try JSONEncoder().encode(value)
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(
      status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  /// An id as a message may quote it: 64 characters at most, controls as `?`.
  static func shown(_ id: String) -> String {
    String(
      id.prefix(64).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
    )
  }
}

/// A cache key: the store's epoch, the feed and the revision it names.
struct CacheKey: Equatable {
  var epoch: String
  var feed: PullFeed
  var revision: Int64

  var text: String { "\(epoch).\(feed.rawValue).\(revision)" }

  /// What the ETag of a gzip body adds to the key.
  static let gzipSuffix = "-gzip"

  /// Parses `"KEY"` or `W/"KEY"`, either with `gzipSuffix`; nil for anything else (a full pull
  /// then, never an error).
  init?(header: String) {
    var value = Substring(header.trimmingCharacters(in: .whitespaces))
    if value.hasPrefix("W/") { value = value.dropFirst(2) }
    guard value.count >= 2, value.first == "\"", value.last == "\"" else { return nil }
    var key = value.dropFirst().dropLast()
    if key.hasSuffix(Self.gzipSuffix) { key = key.dropLast(Self.gzipSuffix.count) }
    let parts = key.split(separator: ".")
    guard parts.count == 3, let feed = PullFeed(rawValue: String(parts[1])),
      let revision = Int64(parts[2]), revision >= 0
    else { return nil }
    self.init(epoch: String(parts[0]), feed: feed, revision: revision)
  }

  init(epoch: String, feed: PullFeed, revision: Int64) {
    self.epoch = epoch
    self.feed = feed
    self.revision = revision
  }
}

/// A limit per key: `perMinute` requests in each minute-long window.
final class RateLimiter: Sendable {
  private let perMinute: Int
  private let clock: @Sendable () -> Int64
  private let windows = Mutex<[String: (start: Int64, count: Int)]>([:])

  init(perMinute: Int, clock: @escaping @Sendable () -> Int64) {
    self.perMinute = perMinute
    self.clock = clock
  }

  /// Nil when the request may go on; else the seconds until the window ends.
  func admit(_ key: String) -> Int? {
    let now = clock()
    return windows.withLock { windows in
      if windows.count > 100_000 { windows = windows.filter { now - $0.value.start < 60_000 } }
      var window = windows[key] ?? (now, 0)
      if now - window.start >= 60_000 { window = (now, 0) }
      window.count += 1
      windows[key] = window
      guard window.count > perMinute else { return nil }
      return Int((window.start + 60_000 - now + 999) / 1000)
    }
  }
}

/// The rates the server keeps: per install (whichever token it holds), of auths per install,
/// and per address (whichever installs it makes).
struct Limits: Sendable {
  let installs: RateLimiter
  let auths: RateLimiter
  let addresses: RateLimiter

  init(settings: ServerSettings) {
    installs = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    auths = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    addresses = RateLimiter(
      perMinute: settings.requestsPerMinutePerAddress ?? settings.requestsPerMinute * 10,
      clock: settings.clock)
  }

  /// `429` when the request's address has used its minute.
  func charge(address context: CTFOContext) throws {
    try charge(addresses, context.channel.remoteAddress?.ipAddress ?? "")
  }

  /// `429` when `install` has used its minute.
  func charge(install: String) throws {
    try charge(installs, install)
  }

  /// `429` when `install` has used its minute of auths.
  func charge(authOf install: String) throws {
    try charge(auths, install)
  }

  private func charge(_ limiter: RateLimiter, _ key: String) throws {
    if let wait = limiter.admit(key) {
      throw APIFailure(
        .tooManyRequests, code: "rate_limited", message: "too many requests", retryAfter: wait)
    }
  }
}

/// Prunes the store (`CardStore.prune`) on a request that finds it due, at most once a
/// minute of the settings' clock: no task of its own, and nothing to prune while idle.
final class Housekeeping: Sendable {
  private let store: any CardStore
  private let settings: ServerSettings
  private let last = Mutex<Int64?>(nil)

  init(store: any CardStore, settings: ServerSettings) {
    self.store = store
    self.settings = settings
  }

  /// A prune that fails (the store busy) fails no request: it is tried again when next due.
  func runIfDue() async {
    let now = settings.clock()
    let due = last.withLock { last in
      guard last.map({ now - $0 >= 60_000 || now < $0 }) ?? true else { return false }
      last = now
      return true
    }
    guard due else { return }
    _ = try? await store.prune(at: now, eventsBefore: settings.eventsRetention.map { now - $0 })
  }
}

/// An error answered as `{"error": {"code", "message"}}`, with `Retry-After` when given.
struct APIFailure: Error {
  var status: HTTPResponse.Status
  var code: String
  var message: String
  var retryAfter: Int?

  init(_ status: HTTPResponse.Status, code: String, message: String, retryAfter: Int? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.retryAfter = retryAfter
  }
}

/// Turns every error into the API's JSON error shape: ours, Hummingbird's (404, 413) and any
/// other (503, the store failed; a retry may work).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Counts the errors that are not the API's or HTTP's: the store's.
  var metrics: ServerMetrics?

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let failure as APIFailure {
      return answer(failure)
    } catch let error as HTTPError where error.status == .notFound {
      guard let allowed = Self.allowed(request.uri.path) else {
        return answer(APIFailure(.notFound, code: "not_found", message: "no such route"))
      }
      var response = answer(
        APIFailure(.methodNotAllowed, code: "method_not_allowed", message: "use \(allowed)"))
      response.headers[.allow] = allowed
      return response
    } catch let error as HTTPError {
      let code =
        error.status == .contentTooLarge
        ? "too_large" : error.status == .notFound ? "not_found" : "http_\(error.status.code)"
      return answer(
        APIFailure(error.status, code: code, message: error.body ?? error.status.reasonPhrase))
    } catch {
      metrics?.storeErrors.increment()
      context.logger.error("request failed: \(error)")
      return answer(
        APIFailure(.serviceUnavailable, code: "unavailable", message: "try again", retryAfter: 5))
    }
  }

  /// The method a route takes, for a path that names one.
  private static func allowed(_ path: String) -> String? {
    switch path {
    case "/v1/auth": "POST"
    case "/v1/pull": "GET"
    case "/v1/events", "/import", "/mp/collect", "/debug/mp/collect": "POST"
    case "/healthz", "/readyz", "/metrics": "GET"
    case _ where path.hasPrefix("/v1/cards/") && path.count > "/v1/cards/".count: "GET"
    default: nil
    }
  }

  private func answer(_ failure: APIFailure) -> Response {
    let body = Wire.ErrorAnswer(error: .init(code: failure.code, message: failure.message))
    var response =
      (try? Routes.json(body, status: failure.status)) ?? Response(status: failure.status)
    if let after = failure.retryAfter { response.headers[.retryAfter] = String(after) }
    return response
  }
}

/// Calls `onRequest` with each request's path before anything else sees it.
struct RequestObserver<Context: RequestContext>: RouterMiddleware {
  let onRequest: @Sendable (String) -> Void

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    onRequest(request.uri.path)
    return try await next(request, context)
  }
}

/// Logs each request's method and path at `debug` (a busy server at `info` writes no line per
/// request): not its query, which may hold a secret (`/mp/collect?api_secret=`).
struct RequestLogger<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    context.logger.debug(
      "Request",
      metadata: [
        "hb.request.path": .string(request.uri.path),
        "hb.request.method": .string(request.method.rawValue),
      ])
    return try await next(request, context)
  }
}

/// Sends the answer to `HEAD` without its body, its headers (`Content-Length` too) as `GET`'s.
struct HeadWithoutBody<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    guard request.method == .head else { return response }
    let length = response.headers[.contentLength]
    response.body = ResponseBody()
    response.headers[.contentLength] = length
    return response
  }
}
