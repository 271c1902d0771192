import Hummingbird
import HummingbirdCore

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
