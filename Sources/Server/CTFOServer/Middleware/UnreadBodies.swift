import Hummingbird

/// Stops reading a body no route takes: a request with one to any other route (or to none)
/// has its connection's input closed, so the body is never read and held; its answer is
/// still sent, and the connection ends with it.
struct UnreadBodies: RouterMiddleware {
  /// The routes that read a body, `METHOD PATH`.
  let routes: Set<String>

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    if declared.map({ $0 > 0 }) ?? (request.headers[.transferEncoding] != nil),
      !routes.contains("\(request.method.rawValue) \(request.uri.path)")
    {
      context.channel.close(mode: .input, promise: nil)
    }
    return try await next(request, context)
  }
}
