import Foundation
import Hummingbird
import HummingbirdCore
import Logging

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
