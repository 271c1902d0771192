import Hummingbird
import NIOCore

/// Ends the connection of a request that comes with a body no route takes (to any other route,
/// or to none): its answer says `Connection: close`, so a keep-alive client sends its next
/// request on a new connection, and the connection is closed once `deadline` has passed, so a
/// body that never ends holds nothing. Closing the input at once (what this did first) lost
/// the next request of every client that reused the connection: an empty `400` or a reset.
struct UnreadBodies: RouterMiddleware {
  /// The routes that read a body, `METHOD PATH`.
  let routes: Set<String>
  /// How long the rest of such a body is read (and dropped) after the answer.
  var deadline: Duration = .seconds(10)

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    guard declared.map({ $0 > 0 }) ?? (request.headers[.transferEncoding] != nil),
      !routes.contains("\(request.method.rawValue) \(request.uri.path)")
    else { return try await next(request, context) }
    let channel = context.channel
    channel.eventLoop.scheduleTask(in: TimeAmount(deadline)) { channel.close(promise: nil) }
    // Outside the error middleware: a 404 or a 405 arrives here as an answer.
    var response = try await next(request, context)
    response.headers[.connection] = "close"
    return response
  }
}
