import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

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
    router.add(middleware: UnreadBodies(routes: bodyRoutes))
    router.add(middleware: ErrorMiddleware(metrics: settings.metrics))
    router.add(middleware: RequestChecks())
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

  /// The routes that read a request body, `METHOD PATH` (`UnreadBodies` ends the connection of
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
          SmallReads(), ConnectionCount(gauge: open), HTTP10Answers.installer(),
        ]
          + (lane.map { lane in
            [
              PullLane.installer {
                PullLane(answerer: lane.answerer, serverName: lane.serverName, metrics: metrics)
              }
            ]
          } ?? []),
        idleTimeout: TimeAmount(settings.idleTimeout)))
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
