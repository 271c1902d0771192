import CTFOWire
import Hummingbird
import Logging
import NIOCore

/// The routes an operator's tools ask, without a token: `/healthz` (the process answers),
/// `/readyz` (the store answers too) and `/metrics` (`ServerMetrics`, Prometheus's text format).
enum OperatorRoutes {
  static func add(to router: Router<CTFOContext>, store: any CardStore, metrics: ServerMetrics) {
    router.get("/healthz") { _, _ in
      plain("ok\n")
    }
    router.get("/readyz") { _, context in
      do {
        try await store.answers()
        return plain("ready\n")
      } catch {
        metrics.storeErrors.increment()
        context.logger.error("the store does not answer: \(error)")
        throw APIFailure(
          .serviceUnavailable, code: "not_ready", message: "the store does not answer",
          retryAfter: 5)
      }
    }
    router.get("/metrics") { _, _ in
      var headers = HTTPFields()
      headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
      return Response(
        status: .ok, headers: headers,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
    }
  }

  private static func plain(_ text: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(
      status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}

extension CardStore {
  /// Throws unless the store answers a query: the one every pull asks first.
  func answers() async throws {
    _ = try await revision(install: nil, feed: .recent)
  }
}
