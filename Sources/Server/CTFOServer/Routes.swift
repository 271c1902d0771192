import CTFOWire
import FeedCore
import FlatJSON
import Foundation
import HTTPTypes
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
  /// The addresses of the reverse proxies in front of the server (`--trusted-proxy`): from
  /// them the client's address is taken from `X-Forwarded-For`.
  public var trustedProxies: Set<String> = []
  /// The SHA-256 of the token `/dashboard` asks for (`--admin-token-file`); nil: no one may
  /// see it.
  public var adminTokenHash: [UInt8]?

  public init() {}
}

/// The request context: a small body limit for every route.
public struct CTFOContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The connection (the fault switch closes it).
  public let channel: any Channel
  /// Who sent the request, once a route that takes a body knew it before reading the body
  /// (`UploadLimits`): the install of a valid token, or the sink whose credentials came.
  public var caller: String?
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
    router(
      store: store, settings: settings, logRequests: logRequests, faults: faults,
      pulls: pullCache ?? PullCache(), limits: Limits(settings: settings, store: store),
      onRequest: onRequest)
  }

  /// The router and the HTTP server of a ctfo-server, the pulls that need no waiting answered
  /// on the event loop (`PullLane`), unless the fault switch is on: its faults are for every
  /// request. The arguments are the router's, and the `Server` header of the answers the
  /// lane sends (the application's `serverName`), and the logger its pulls are logged to at
  /// `debug` as the router's requests are (the application's).
  public static func service(
    store: any CardStore, settings: ServerSettings = ServerSettings(), logRequests: Bool = true,
    faults: Faults? = nil, pullCache: PullCache? = nil, serverName: String? = nil,
    logger: Logger? = nil, onRequest: (@Sendable (String) -> Void)? = nil
  ) -> (router: Router<CTFOContext>, server: HTTPServerBuilder) {
    let faults = faults ?? (settings.testFaults ? Faults() : nil)
    let pulls = pullCache ?? PullCache()
    let limits = Limits(settings: settings, store: store)
    let router = router(
      store: store, settings: settings, logRequests: logRequests, faults: faults, pulls: pulls,
      limits: limits, onRequest: onRequest)
    guard faults == nil else { return (router, server(settings: settings)) }
    let answerer: PullLane.Answerer = { request, address in
      let answer = pullAtOnce(
        request, address: address, store: store, settings: settings, limits: limits,
        cache: pulls)
      if answer != nil, let onRequest { onRequest("/v1/pull") }
      if answer != nil, logRequests {
        logger?.debug(
          "Request",
          metadata: [
            "hb.request.path": "/v1/pull", "hb.request.method": .string(request.method.rawValue),
          ])
      }
      return answer
    }
    return (router, server(settings: settings, lane: (answerer, serverName)))
  }

  private static func router(
    store: any CardStore, settings: ServerSettings, logRequests: Bool, faults: Faults?,
    pulls: PullCache, limits: Limits, onRequest: (@Sendable (String) -> Void)?
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
    router.add(middleware: RequestChecks())
    router.add(middleware: UnreadBodies(routes: bodyRoutes))
    let uploads = Uploads(settings: settings, limits: limits)
    let housekeeping = Housekeeping(store: store, settings: settings)
    let authorize: @Sendable (Request, CTFOContext) async throws -> String = { request, context in
      if let caller = context.caller { return caller }
      return try await Self.authorize(
        request, context, store: store, settings: settings, limits: limits)
    }
    router.group().add(middleware: uploads.limits(largest: settings.requestBodyLimit))
      .post("/v1/auth") { request, context in
        try limits.charge(address: request, context)
        let answer = try await auth(request, store: store, settings: settings, limits: limits)
        await housekeeping.runIfDue()
        return answer
      }
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
      uploads: uploads, authorize: authorize)
    OperatorRoutes.add(
      to: router, store: store, metrics: settings.metrics, clock: settings.clock)
    DashboardRoutes.add(
      to: router, store: store, settings: settings, uploads: uploads, limits: limits)
    return router
  }

  /// The routes that read a request body, `METHOD PATH` (`UnreadBodies` closes the input of
  /// any other request that comes with one).
  static let bodyRoutes: Set<String> = [
    "POST /v1/auth", "POST /v1/events", "POST /import", "POST /mp/collect",
    "POST /debug/mp/collect", "POST /dashboard/login",
    // The test fault switch's rules, when it is on (`--test-faults`).
    "PUT /_test/faults",
  ]

  /// The HTTP/1.1 server with the settings' idle timeout, which also ends a head that never
  /// completes, reading each connection in small pieces (`SmallReads`), counting connections.
  public static func server(settings: ServerSettings) -> HTTPServerBuilder {
    server(settings: settings, lane: nil)
  }

  private static func server(
    settings: ServerSettings, lane: (answerer: PullLane.Answerer, serverName: String?)?
  ) -> HTTPServerBuilder {
    let open = settings.metrics.connectionsOpen
    let metrics = settings.metrics
    return .http1(
      configuration: .init(
        additionalChannelHandlers: [
          SmallReads(), ConnectionCount(gauge: open), HTTP10Answers.Installer(),
        ]
          + (lane.map { lane in
            [
              PullLane.Installer {
                PullLane(answerer: lane.answerer, serverName: lane.serverName, metrics: metrics)
              }
            ]
          } ?? []),
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
    // The address is charged only for what the install's rate does not limit: a request
    // without a valid token.
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
      case let token = String(header.dropFirst(7)), (1...256).contains(token.utf8.count)
    else {
      try limits.charge(address: request, context)
      throw APIFailure(.unauthorized, code: "unauthorized", message: "a bearer token is needed")
    }
    guard let install = try await store.install(forToken: Token.hash(token), at: settings.clock())
    else {
      try limits.charge(address: request, context)
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
    let ask = try PullAsk(
      feed: request.uri.queryParameters.get("feed"), ifNoneMatch: request.headers[.ifNoneMatch],
      acceptEncoding: request.headers[values: .acceptEncoding])
    let epoch = try await store.epoch()
    let current = CacheKey(
      epoch: epoch, feed: ask.feed,
      revision: try await store.revision(install: install, feed: ask.feed))
    var headers = ask.headers(current)
    if ask.holds(current) { return Response(status: .notModified, headers: headers) }
    var body: ByteBuffer
    if let since = ask.since(current) {
      let changes = try await store.changes(
        since: since, feed: ask.feed, bodyLimit: settings.pullBodyLimit, install: install)
      let json = try PullBody.json(
        Wire.Pull(
          cacheKey: current.text, full: changes.full, serverTime: settings.clock(),
          types: changes.types, cards: changes.cards, removed: changes.removed,
          scores: changes.scores,
          user: Wire.User(
            status: changes.userStatus ?? Changes.defaultStatus,
            notifications: changes.notifications)))
      body = ask.gzip ? try PullBody.gzip(json) : ByteBuffer(bytes: json)
    } else {
      let shared = try await cache.shared(
        store: store, feed: ask.feed, bodyLimit: settings.pullBodyLimit,
        fromMemory: { settings.metrics.pullsFromMemory.increment() })
      body = try PullBody.full(
        shared: shared, cacheKey: current.text, serverTime: settings.clock(),
        own: try await store.ownChanges(install: install, feed: ask.feed), gzip: ask.gzip)
    }
    ask.describe(body: &headers)
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
  }

  /// A pull answered from what is at hand, without waiting: a `304`, or a full pull whose
  /// shared part is kept; nil when the store or the cache would have to be waited for, or the
  /// request is not one these answer (a bad token, a delta, a bad feed), and the route answers
  /// it. Charges the rates as the route does; past one, its `429`.
  static func pullAtOnce(
    _ request: HTTPRequest, address: String, store: any CardStore, settings: ServerSettings,
    limits: Limits, cache: PullCache
  ) -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer?)? {
    guard request.authority != nil, let fields = PullFields(request.headerFields),
      let header = fields.authorization, header.hasPrefix("Bearer "),
      case let token = header.dropFirst(7), (1...256).contains(token.utf8.count),
      let feed = PullAsk.feedAtOnce(path: request.path ?? ""),
      let ask = try? PullAsk(
        feed: feed, ifNoneMatch: fields.ifNoneMatch,
        acceptEncoding: fields.acceptEncoding.map { [$0] } ?? []),
      let install = store.installAtOnce(
        forToken: Token.hash(String(token)), at: settings.clock()),
      let epoch = store.epochAtOnce(),
      let revision = store.revisionAtOnce(install: install, feed: ask.feed)
    else { return nil }
    let current = CacheKey(epoch: epoch, feed: ask.feed, revision: revision)
    var headers = ask.headers(current)
    var body: ByteBuffer?
    if !ask.holds(current) {
      // What the route would build: nothing is charged for a pull handed on to it.
      guard ask.since(current) == nil,
        let shared = store.revisionAtOnce(install: nil, feed: ask.feed).flatMap({
          cache.kept(
            epoch: epoch, feed: ask.feed, revision: $0, bodyLimit: settings.pullBodyLimit)
        }),
        let own = store.ownChangesAtOnce(install: install, feed: ask.feed, revision: revision),
        let full = try? PullBody.full(
          shared: shared, cacheKey: current.text, serverTime: settings.clock(), own: own,
          gzip: ask.gzip)
      else { return nil }
      body = full
    }
    do {
      try limits.charge(install: install)
    } catch let failure as APIFailure {
      return failure.answer()
    } catch {
      return nil
    }
    guard let body else { return (.notModified, headers, nil) }
    settings.metrics.pullsFromMemory.increment()
    ask.describe(body: &headers)
    return (.ok, headers, body)
  }

  /// The longest `Accept-Encoding` read, in bytes: past it, the answer is not compressed.
  static let acceptEncodingLimit = 256

  /// Whether an `Accept-Encoding` list takes gzip: named (or `*`) with a weight above zero.
  /// Read as bytes: it is read on every pull.
  static func acceptsGzip(_ values: [String]) -> Bool {
    // A longer list is no client's: read it, and every pull (and 429) costs its length.
    guard values.reduce(0, { $0 + $1.utf8.count }) <= acceptEncodingLimit else { return false }
    var named: Bool?
    var any = false
    for value in values {
      for item in value.utf8.split(separator: UInt8(ascii: ",")) {
        let parts = item.split(separator: UInt8(ascii: ";")).map(Self.trimmed)
        guard let coding = parts.first, !coding.isEmpty else { continue }
        let weight =
          parts.dropFirst().first { Self.lowercased($0.prefix(2)) == Array("q=".utf8) }
          .flatMap { Double(String(decoding: $0.dropFirst(2), as: UTF8.self)) } ?? 1
        switch Self.lowercased(coding) {
        case Array("gzip".utf8), Array("x-gzip".utf8): named = weight > 0
        case [UInt8(ascii: "*")]: any = weight > 0
        default: continue
        }
      }
    }
    return named ?? any
  }

  /// `bytes` without the spaces and tabs around them (HTTP's optional white space).
  private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
    let space = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !space($0) }),
      let last = bytes.lastIndex(where: { !space($0) })
    else { return bytes[bytes.endIndex...] }
    return bytes[first...last]
  }

  /// ASCII letters made lower case, other bytes as they are.
  private static func lowercased<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
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

/// What a pull asks for: the feed, the cache key the client holds, and whether it takes gzip.
struct PullAsk {
  var feed: PullFeed
  /// The `If-None-Match` header as it came.
  var ifNoneMatch: String?
  var gzip: Bool

  init(feed name: String?, ifNoneMatch: String?, acceptEncoding: [String]) throws {
    guard let feed = PullFeed(rawValue: name ?? "hot") else {
      throw APIFailure(.badRequest, code: "bad_feed", message: "feed must be hot or recent")
    }
    self.feed = feed
    self.ifNoneMatch = ifNoneMatch
    gzip = acceptEncoding.isEmpty ? false : Routes.acceptsGzip(acceptEncoding)
  }

  /// The revision a delta starts from: the held key's, when it names this store and feed and
  /// is not ahead; nil for a full pull.
  func since(_ current: CacheKey) -> Int64? {
    tags.compactMap { CacheKey(header: $0) }.compactMap {
      $0.epoch == current.epoch && $0.feed == feed && $0.revision <= current.revision
        ? $0.revision : nil
    }.max()
  }

  /// Whether the client holds `current`: its ETag as this server sends it (a string compared,
  /// nothing parsed), another spelling of the same key, one of a list of them, or `*` (any).
  func holds(_ current: CacheKey) -> Bool {
    guard let ifNoneMatch else { return false }
    let text = current.text
    if ifNoneMatch == "\"\(text)\"" || ifNoneMatch == "\"\(text)\(CacheKey.gzipSuffix)\"" {
      return true
    }
    return tags.contains { $0 == "*" || CacheKey(header: $0) == current }
  }

  /// The entity tags of `If-None-Match`, a list split at its commas (this server's tags hold
  /// none); a few at most are read.
  private var tags: [Substring] {
    guard let ifNoneMatch, ifNoneMatch.utf8.count <= 1024 else { return [] }
    return ifNoneMatch.split(separator: ",", maxSplits: 16).prefix(16).map {
      $0.trimmingCharacters(in: .whitespaces)[...]
    }
  }

  /// The feed a request's path (with its query) names, "hot" when none; nil when its query
  /// says it in a way only the router reads (escaped, or twice).
  static func feedAtOnce(path: String) -> String?? {
    guard let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) else { return .some(nil) }
    var found: String?? = .some(nil)
    for pair in path.utf8[path.utf8.index(after: mark)...].split(separator: UInt8(ascii: "&")) {
      guard !pair.contains(UInt8(ascii: "%")), !pair.contains(UInt8(ascii: "+")) else {
        return nil
      }
      guard pair.starts(with: "feed=".utf8) else { continue }
      if case .some(.some) = found { return nil }
      found = .some(String(Substring(pair.dropFirst(5))))
    }
    return found
  }

  /// The headers of every answer to the pull, a `304` too.
  func headers(_ current: CacheKey) -> HTTPFields {
    // Appended, not set: a field set by name is looked for first, and these are new.
    var headers = HTTPFields()
    headers.reserveCapacity(8)
    // A gzip body is another representation: its strong ETag says so (`CacheKey` reads both).
    headers.append(
      HTTPField(name: .eTag, value: "\"\(current.text)\(gzip ? CacheKey.gzipSuffix : "")\""))
    headers.append(HTTPField(name: .cacheControl, value: "no-cache"))
    headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    return headers
  }

  /// Adds what a body's headers say to the pull's `headers`.
  func describe(body headers: inout HTTPFields) {
    headers.append(HTTPField(name: .contentType, value: "application/json"))
    if gzip { headers.append(HTTPField(name: .contentEncoding, value: "gzip")) }
  }
}

/// The headers a pull answered at once reads, found in one pass over the request's fields (a
/// field looked up by name joins every value of that name into a new string); nil when one of
/// them comes twice, for the route to read as it reads any request.
struct PullFields {
  var authorization: String?
  var ifNoneMatch: String?
  var acceptEncoding: String?

  init?(_ fields: HTTPFields) {
    for field in fields {
      switch field.name {
      case .host: return nil  // A second Host: the router refuses it.
      case .authorization:
        guard authorization == nil else { return nil }
        authorization = field.value
      case .ifNoneMatch:
        guard ifNoneMatch == nil else { return nil }
        ifNoneMatch = field.value
      case .acceptEncoding:
        guard acceptEncoding == nil else { return nil }
        acceptEncoding = field.value
      default: continue
      }
    }
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
  init?(header: some StringProtocol) {
    var value = Substring(header).utf8[...]
    while value.first == UInt8(ascii: " ") || value.first == UInt8(ascii: "\t") {
      value = value.dropFirst()
    }
    while value.last == UInt8(ascii: " ") || value.last == UInt8(ascii: "\t") {
      value = value.dropLast()
    }
    if value.starts(with: "W/".utf8) { value = value.dropFirst(2) }
    guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"")
    else { return nil }
    var key = Substring(value.dropFirst().dropLast())
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
///
/// The windows live in two tables: the keys seen in the current minute of the limiter and
/// those of the minute before. Each minute the older table is dropped whole, so a request
/// costs one lookup whatever the number of keys, and what the limiter holds is two minutes'
/// keys at most (a table past `capacity` turns over early).
final class RateLimiter: Sendable {
  private struct Tables {
    var current: [String: (start: Int64, count: Int)] = [:]
    var previous: [String: (start: Int64, count: Int)] = [:]
    var turnedAt: Int64?
  }
  private let perMinute: Int
  private let clock: @Sendable () -> Int64
  private let capacity: Int
  private let tables = Mutex(Tables())

  init(perMinute: Int, clock: @escaping @Sendable () -> Int64, capacity: Int = 200_000) {
    self.perMinute = perMinute
    self.clock = clock
    self.capacity = capacity
  }

  /// Nil when the request may go on; else the seconds until the window ends.
  func admit(_ key: String) -> Int? {
    let now = clock()
    // The table dropped at a turn is released outside the lock.
    var dropped: [String: (start: Int64, count: Int)] = [:]
    let wait = tables.withLock { tables -> Int? in
      let turnedAt = tables.turnedAt ?? now
      if now - turnedAt >= 60_000 || now < turnedAt || tables.current.count >= capacity {
        dropped = tables.previous
        tables.previous = tables.current
        tables.current = [:]
        tables.turnedAt = now
      } else if tables.turnedAt == nil {
        tables.turnedAt = now
      }
      var window =
        tables.current[key] ?? tables.previous.removeValue(forKey: key) ?? (now, 0)
      if now - window.start >= 60_000 || now < window.start { window = (now, 0) }
      window.count += 1
      tables.current[key] = window
      guard window.count > perMinute else { return nil }
      return Int((window.start + 60_000 - now + 999) / 1000)
    }
    withExtendedLifetime(dropped) {}
    return wait
  }
}

/// The rates the server keeps: per install (whichever token it holds), of auths per install,
/// and per address (whichever installs it makes). An install's requests are counted across the
/// server processes when the store counts them together (`SharedRates`); auths and addresses
/// by each process.
struct Limits: Sendable {
  let installs: RateLimiter
  let sharedInstalls: SharedRates?
  let auths: RateLimiter
  let addresses: RateLimiter
  /// Dashboard logins per client address: a guess of the admin token is as costly as it can
  /// be made.
  let logins: RateLimiter
  /// The proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
  let trustedProxies: Set<String>

  init(settings: ServerSettings, store: any CardStore) {
    trustedProxies = settings.trustedProxies
    sharedInstalls =
      store.sharesRequestCounts
      ? SharedRates(perMinute: settings.requestsPerMinute, clock: settings.clock, store: store)
      : nil
    installs = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    auths = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    addresses = RateLimiter(
      perMinute: settings.requestsPerMinutePerAddress ?? settings.requestsPerMinute * 10,
      clock: settings.clock)
    logins = RateLimiter(perMinute: Self.loginsPerMinute, clock: settings.clock)
  }

  /// `429` when the request's client address has used its minute.
  func charge(address request: Request, _ context: CTFOContext) throws {
    try charge(
      address: client(
        peer: context.channel.remoteAddress?.ipAddress ?? "",
        forwardedFor: request.headers[values: .xForwardedFor]))
  }

  /// The client's address: the peer's, or when the peer is a trusted proxy, the right-most
  /// address of `X-Forwarded-For` that is not one (those left of it are what the client
  /// said, and anyone may say anything).
  func client(peer: String, forwardedFor values: [String]) -> String {
    guard trustedProxies.contains(peer), !values.isEmpty else { return peer }
    var client = peer
    // At most the last few hops are read: a long header costs no more than a short one.
    var hops = 0
    for value in values.reversed() {
      for hop in value.split(separator: ",").reversed() {
        let address = hop.trimmingCharacters(in: .whitespaces)
        guard !address.isEmpty else { continue }
        client = address
        hops += 1
        if !trustedProxies.contains(address) || hops >= 16 { return client }
      }
    }
    return client
  }

  /// `429` when `address` has used its minute.
  func charge(address: String) throws {
    try charge(addresses, address)
  }

  /// `429` when `install` has used its minute.
  func charge(install: String) throws {
    guard let sharedInstalls else { return try charge(installs, install) }
    if let wait = sharedInstalls.admit(install) { throw APIFailure.rateLimited(retryAfter: wait) }
  }

  /// Dashboard logins a client address may try per minute.
  static let loginsPerMinute = 10

  /// `429` when the request's client address has used its minute of dashboard logins.
  func charge(login request: Request, _ context: CTFOContext) throws {
    try charge(
      logins,
      client(
        peer: context.channel.remoteAddress?.ipAddress ?? "",
        forwardedFor: request.headers[values: .xForwardedFor]))
  }

  /// `429` when `install` has used its minute of auths.
  func charge(authOf install: String) throws {
    try charge(auths, install)
  }

  private func charge(_ limiter: RateLimiter, _ key: String) throws {
    if let wait = limiter.admit(key) { throw APIFailure.rateLimited(retryAfter: wait) }
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

extension APIFailure {
  static func rateLimited(retryAfter wait: Int) -> APIFailure {
    APIFailure(
      .tooManyRequests, code: "rate_limited", message: "too many requests", retryAfter: wait)
  }

  /// The answer that says it: `{"error": {"code", "message"}}`, with `Retry-After` when given.
  func answer() -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
    let json =
      (try? JSONEncoder().encode(Wire.ErrorAnswer(error: .init(code: code, message: message))))
      ?? Data()
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    return (status, headers, ByteBuffer(bytes: json))
  }
}

/// Turns every error into the API's JSON error shape: ours, Hummingbird's (404, 413) and any
/// other (503, the store failed; a retry may work).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Counts the errors that are not the API's or HTTP's: the store's.
  var metrics: ServerMetrics?
  /// How often such an error is logged.
  var throttle = LogThrottle()

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
      // One line a second at most: a store down fails every request, and the log must not
      // grow by a line each.
      if let dropped = throttle.admit() {
        let more = dropped > 0 ? " (and \(dropped) more failed since the last line)" : ""
        context.logger.error("request failed: \(error)\(more)")
      }
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
    case "/healthz", "/readyz", "/metrics", "/dashboard": "GET, HEAD"
    case _ where path.hasPrefix("/v1/cards/") && path.count > "/v1/cards/".count: "GET"
    default: nil
    }
  }

  private func answer(_ failure: APIFailure) -> Response {
    let (status, headers, body) = failure.answer()
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
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

extension HTTPField.Name {
  /// The addresses a request came through, the client's first (a proxy appends its peer's).
  static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

extension HTTPField.Name {
  /// A request's `Host` past its first (the first is the request's authority).
  static let host = HTTPField.Name("Host")!
}

/// Refuses what HTTP/1.1 says a server must not take: a request without a `Host`, or with
/// two (`400`), and a transfer coding other than `chunked` alone (`501`: the body could not
/// be read as sent). The connection's input is closed: no body of it is read.
struct RequestChecks: RouterMiddleware {
  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    if request.head.authority == nil || request.headers[.host] != nil {
      context.channel.close(mode: .input, promise: nil)
      throw APIFailure(.badRequest, code: "bad_host", message: "send one Host header")
    }
    let codings = request.headers[values: .transferEncoding]
    if !codings.isEmpty,
      codings.joined(separator: ",").lowercased().split(separator: ",").map({
        $0.trimmingCharacters(in: .whitespaces)
      }) != ["chunked"]
    {
      context.channel.close(mode: .input, promise: nil)
      throw APIFailure(
        .notImplemented, code: "transfer_coding", message: "only chunked transfer coding is read")
    }
    return try await next(request, context)
  }
}

/// Lets a line of the log through at most once per `interval`, and counts those held back.
final class LogThrottle: Sendable {
  private let interval: Duration
  private let now: @Sendable () -> ContinuousClock.Instant
  private let state = Mutex<(last: ContinuousClock.Instant?, dropped: Int)>((nil, 0))

  init(
    interval: Duration = .seconds(1),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
  ) {
    self.interval = interval
    self.now = now
  }

  /// Nil to hold the line back; else how many were held back since the last one let through.
  func admit() -> Int? {
    let now = now()
    return state.withLock { state in
      if let last = state.last, now - last < interval {
        state.dropped += 1
        return nil
      }
      defer { state = (now, 0) }
      return state.dropped
    }
  }
}
