import Hummingbird
import Prometheus

/// Counts each request by route and status, with its time to an answer. A request whose
/// handler throws past every other middleware counts as `500`.
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
  let metrics: ServerMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let route = RouteName(path: request.uri.path)
    do {
      let response = try await next(request, context)
      metrics.request(
        route: route, status: response.status.code, took: ContinuousClock.now - start)
      return response
    } catch {
      metrics.request(route: route, status: 500, took: ContinuousClock.now - start)
      throw error
    }
  }
}
