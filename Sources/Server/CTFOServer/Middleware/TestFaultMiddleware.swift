import CTFOWire
import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// Applies the fault switch's rules to every request but its own routes, and logs them.
struct FaultMiddleware: RouterMiddleware {
  let faults: Faults

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    guard !request.uri.path.hasPrefix("/_test/") else { return try await next(request, context) }
    let rule = faults.begin(request)
    defer { faults.end() }
    guard let rule else { return try await next(request, context) }
    if let delay = rule.delayMs, delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
    switch rule.action ?? .answer {
    case .answer:
      guard let status = rule.status else { return try await next(request, context) }
      let body = Wire.ErrorAnswer(
        error: .init(code: "fault", message: "a fault the test asked for"))
      var response = try Routes.json(body, status: HTTPResponse.Status(code: status))
      if let after = rule.retryAfter { response.headers[.retryAfter] = String(after) }
      if let location = rule.location { response.headers[.location] = location }
      return response
    case .reset:
      // SO_LINGER 0 makes the close a reset (RST), not an orderly end of the stream.
      if let socket = context.channel as? any SocketOptionProvider {
        try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
      }
      try? await context.channel.close()
      throw ConnectionClosed()
    case .closeAfterCommit:
      _ = try await next(request, context)
      try? await context.channel.close()
      throw ConnectionClosed()
    }
  }

  /// The connection was closed on purpose: nothing more is written.
  struct ConnectionClosed: Error {}
}
