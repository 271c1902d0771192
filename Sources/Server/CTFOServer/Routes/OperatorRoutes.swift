import Hummingbird
import Logging
import NIOCore

/// The routes an operator's tools ask, without a token: `/healthz` (the process answers),
/// `/readyz` (the store answers too) and `/metrics` (`ServerMetrics`, Prometheus's text format).
enum OperatorRoutes {
  /// `clock`: the wall clock in milliseconds, by which a health check is a second old.
  static func add(
    to router: Router<CTFOContext>, store: any PullStore, metrics: ServerMetrics,
    clock: @escaping @Sendable () -> Int64
  ) {
    let ready = ready(store: store, metrics: metrics, clock: clock)
    // HEAD is GET without the body (`HeadWithoutBody` drops it), as a monitor may ask.
    for method in [HTTPRequest.Method.get, .head] {
      router.on("/healthz", method: method) { _, _ in plain("ok\n") }
      router.on("/readyz", method: method, use: ready)
      router.on("/metrics", method: method) { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
          status: .ok, headers: headers,
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
      }
    }
  }

  private static func ready(
    store: any PullStore, metrics: ServerMetrics, clock: @escaping @Sendable () -> Int64
  ) -> @Sendable (Request, CTFOContext) async throws -> Response {
    let readiness = Readiness(store: store, clock: clock)
    let throttle = LogThrottle()
    return { _, context in
      if let error = await readiness.problem() {
        metrics.storeErrors.increment()
        if throttle.admit() != nil { context.logger.error("the store does not answer: \(error)") }
        throw APIFailure(
          .serviceUnavailable, code: "not_ready", message: "the store does not answer",
          retryAfter: 5)
      }
      return plain("ready\n")
    }
  }

  private static func plain(_ text: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(
      status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}

extension PullStore {
  /// Throws unless the store answers a query (the one every pull asks first) and, for a
  /// store in a file, its disk has room for the writes requests make.
  func answers() async throws {
    _ = try await revision(install: nil, feed: .recent)
    try (self as? SQLiteCardStore)?.checkRoom()
  }
}
