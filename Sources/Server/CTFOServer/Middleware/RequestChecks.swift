import Foundation
import Hummingbird

/// Refuses what HTTP/1.1 says a server must not take: a request without a `Host`, or with
/// two (`400`), and a transfer coding other than `chunked` alone (`501`: the body could not
/// be read as sent). The connection's input is closed: no body of it is read.
struct RequestChecks: RouterMiddleware {
  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    if request.head.authority == nil || request.headers[.host] != nil {
      context.channel.close(mode: .input, promise: nil)
      throw APIFailure(.badRequest, code: "bad_host", message: "send one Host header")
    }
    let codings = request.headers[values: .transferEncoding]
    if !codings.isEmpty,
      codings.joined(separator: ",").lowercased().split(separator: ",").map({
        $0.trimmingCharacters(in: .whitespaces)
      }) != ["chunked"]
    {
      context.channel.close(mode: .input, promise: nil)
      throw APIFailure(
        .notImplemented, code: "transfer_coding", message: "only chunked transfer coding is read")
    }
    return try await next(request, context)
  }
}
