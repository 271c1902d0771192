import FeedCore
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServerAPI
import Synchronization

/// The settings of a running server.
public struct ServerSettings: Sendable {
  /// How long a token is good for, in milliseconds (30 days).
  public var tokenLifetime: Int64 = 30 * 24 * 3600 * 1000
  /// A card whose body is longer (in bytes) goes in a pull without it: `GET /v1/cards/{id}`.
  public var pullBodyLimit = 4096
  /// Requests a token may make per minute before `429`.
  public var requestsPerMinute = 600
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
  public static func router(
    store: any CardStore, settings: ServerSettings = ServerSettings(), logRequests: Bool = true,
    faults: Faults? = nil, onRequest: (@Sendable (String) -> Void)? = nil
  ) -> Router<CTFOContext> {
    let router = Router(context: CTFOContext.self)
    if let onRequest { router.add(middleware: RequestObserver(onRequest: onRequest)) }
    if logRequests { router.add(middleware: RequestLogger()) }
    router.add(middleware: HeadWithoutBody())
    let faults = faults ?? (settings.testFaults ? Faults() : nil)
    if let faults {
      router.add(middleware: FaultMiddleware(faults: faults))
      faults.addRoutes(to: router)
    }
    router.add(middleware: ErrorMiddleware())
    router.add(
      middleware: UploadLimits(
        budget: UploadBudget(capacity: settings.uploadMemory),
        gate: WorkGate(width: settings.concurrentUploads), largest: EventRoutes.importBodyLimit,
        deadline: settings.bodyDeadline))
    let limiter = RateLimiter(perMinute: settings.requestsPerMinute)
    router.post("/v1/auth") { request, context in
      try await auth(request, store: store, settings: settings)
    }
    let pullRoute: @Sendable (Request, CTFOContext) async throws -> Response = { request, _ in
      let install = try authorize(request, store: store, limiter: limiter)
      return try pull(request, store: store, settings: settings, install: install)
    }
    let cardRoute: @Sendable (Request, CTFOContext) async throws -> Response = { request, context in
      _ = try authorize(request, store: store, limiter: limiter)
      // The router splits the raw path, so an id's `%2F` stays within it until decoded here.
      let raw = context.parameters.get("id") ?? ""
      guard let id = raw.removingPercentEncoding else {
        throw APIFailure(.notFound, code: "not_found", message: "no card \(shown(raw))")
      }
      guard let card = try store.card(id: id) else {
        throw APIFailure(.notFound, code: "not_found", message: "no card \(shown(id))")
      }
      return try json(card)
    }
    // HEAD is GET without the body (`HeadWithoutBody` drops it).
    for method in [HTTPRequest.Method.get, .head] {
      router.on("/v1/pull", method: method, use: pullRoute)
      router.on("/v1/cards/:id", method: method, use: cardRoute)
    }
    EventRoutes.add(to: router, store: store, limiter: limiter) { request in
      try authorize(request, store: store, limiter: limiter)
    }
    return router
  }

  /// The HTTP/1.1 server with the settings' idle timeout, which also ends a head that never
  /// completes, reading each connection in small pieces (`SmallReads`).
  public static func server(settings: ServerSettings) -> HTTPServerBuilder {
    .http1(
      configuration: .init(
        additionalChannelHandlers: [SmallReads()], idleTimeout: TimeAmount(settings.idleTimeout)))
  }

  // MARK: - Auth

  private static func auth(
    _ request: Request, store: any CardStore, settings: ServerSettings
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
    let now = Clock.milliseconds()
    let token = Token.make()
    let expires = now + settings.tokenLifetime
    let distinct = try store.issueToken(
      hash: token.hash, installId: auth.installId, expiresAt: expires)
    let key = CacheKey(epoch: try store.epoch(), feed: .hot, revision: try store.revision())
    return try json(
      Wire.AuthResponse(
        token: token.text, tokenExpiresAt: expires, cacheKey: key.text, distinctId: distinct,
        serverTime: now))
  }

  /// The install of the request's bearer token; `401` without a good one, `429` past the rate.
  private static func authorize(
    _ request: Request, store: any CardStore, limiter: RateLimiter
  ) throws -> String {
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
      case let token = String(header.dropFirst(7)), (1...256).contains(token.utf8.count)
    else {
      throw APIFailure(.unauthorized, code: "unauthorized", message: "a bearer token is needed")
    }
    let hash = Token.hash(token)
    guard let install = try store.install(forToken: hash, at: Clock.milliseconds()) else {
      throw APIFailure(.unauthorized, code: "unauthorized", message: "the token is not valid")
    }
    if let wait = limiter.admit(Token.hex(hash)) {
      throw APIFailure(
        .tooManyRequests, code: "rate_limited", message: "too many requests", retryAfter: wait)
    }
    return install
  }

  // MARK: - Pull

  private static func pull(
    _ request: Request, store: any CardStore, settings: ServerSettings, install: String
  ) throws -> Response {
    let feedName = request.uri.queryParameters.get("feed") ?? "hot"
    guard let feed = PullFeed(rawValue: feedName) else {
      throw APIFailure(.badRequest, code: "bad_feed", message: "feed must be hot or recent")
    }
    let epoch = try store.epoch()
    let revision = try store.revision()
    let current = CacheKey(epoch: epoch, feed: feed, revision: revision)
    let held = request.headers[.ifNoneMatch].flatMap(CacheKey.init(header:))
    var headers = HTTPFields()
    headers[.eTag] = "\"\(current.text)\""
    headers[.cacheControl] = "no-cache"
    if held == current { return Response(status: .notModified, headers: headers) }
    let since =
      held.flatMap {
        $0.epoch == epoch && $0.feed == feed && $0.revision <= revision ? $0.revision : nil
      }
    let changes = try store.changes(
      since: since, feed: feed, bodyLimit: settings.pullBodyLimit, install: install)
    let pull = Wire.Pull(
      cacheKey: current.text, full: changes.full, serverTime: Clock.milliseconds(),
      types: changes.types, cards: changes.cards, removed: changes.removed,
      scores: changes.scores,
      user: Wire.User(status: "active", notifications: changes.notifications))
    var response = try json(pull)
    response.headers[.eTag] = headers[.eTag]
    response.headers[.cacheControl] = "no-cache"
    return response
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

  /// Parses `"KEY"` or `W/"KEY"`; nil for anything else (a full pull then, never an error).
  init?(header: String) {
    var value = Substring(header.trimmingCharacters(in: .whitespaces))
    if value.hasPrefix("W/") { value = value.dropFirst(2) }
    guard value.count >= 2, value.first == "\"", value.last == "\"" else { return nil }
    let parts = value.dropFirst().dropLast().split(separator: ".")
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

/// A per-token limit: `perMinute` requests in each minute-long window.
final class RateLimiter: Sendable {
  private let perMinute: Int
  private let windows = Mutex<[String: (start: Int64, count: Int)]>([:])

  init(perMinute: Int) { self.perMinute = perMinute }

  /// Nil when the request may go on; else the seconds until the window ends.
  func admit(_ key: String) -> Int? {
    let now = Clock.milliseconds()
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

/// Logs each request's method and path: not its query, which may hold a secret
/// (`/mp/collect?api_secret=`).
struct RequestLogger<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    context.logger.info(
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
