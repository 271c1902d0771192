import Hummingbird
import Logging

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
