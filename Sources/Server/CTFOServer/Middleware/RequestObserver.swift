import Hummingbird

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
