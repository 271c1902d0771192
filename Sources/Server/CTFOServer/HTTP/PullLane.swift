import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Answers the pulls that need no waiting (`Routes.pullAtOnce`: a `304`, a full pull from
/// memory) on the event loop that read them, in the connection's pipeline, before Hummingbird's
/// router; every other request goes on to the router as before.
///
/// A conditional pull is most of a server's requests and the cheapest to answer: its cost is
/// the trip through the router's tasks, not the answer (DECISIONS.md, "Pulls that need no
/// waiting are answered on the event loop"). It sits after `HTTPConnectionStateHandler`, which so sees its requests and
/// answers as the router's (idle timeouts, a graceful shutdown's last answer), and answers only
/// while no request of its connection is with the router, so that answers keep their order.
final class PullLane: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// The answer to a request, or nil to hand it on; given the request and its address.
  typealias Answerer = @Sendable (HTTPRequest, String) -> Answer?
  typealias Answer = (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer?)

  private let answerer: Answerer
  private let serverName: String?
  private let metrics: ServerMetrics
  /// Requests handed on whose answers are not yet written whole.
  private var handedOn = 0
  /// The answer to the request being read, sent when its end comes.
  private var answering: (answer: Answer, start: ContinuousClock.Instant, head: Bool, close: Bool)?
  /// The connection's peer address as text, made on its first pull (libc writes it with
  /// `sprintf`).
  private var address: String?

  init(answerer: @escaping Answerer, serverName: String?, metrics: ServerMetrics) {
    self.answerer = answerer
    self.serverName = serverName
    self.metrics = metrics
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let request):
      let start = ContinuousClock.now
      if handedOn == 0, answering == nil, request.method == .get || request.method == .head,
        Self.isPull(request.path),
        let answer = answerer(request, peer(context))
      {
        answering = (answer, start, request.method == .head, Self.closes(request))
        return
      }
      handedOn += 1
      context.fireChannelRead(data)
    case .body:
      // A body sent with a pull means nothing: dropped, as the router drops it.
      if answering == nil { context.fireChannelRead(data) }
    case .end:
      guard let (answer, start, head, close) = answering else {
        context.fireChannelRead(data)
        return
      }
      answering = nil
      send(answer, head: head, close: close, context: context)
      metrics.request(route: .pull, status: answer.status.code, took: .now - start)
    }
  }

  private func peer(_ context: ChannelHandlerContext) -> String {
    if let address { return address }
    let made = context.channel.remoteAddress?.ipAddress ?? ""
    address = made
    return made
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { handedOn = max(0, handedOn - 1) }
    context.write(data, promise: promise)
  }

  /// Whether the request asks for its connection to end with the answer.
  static func closes(_ request: HTTPRequest) -> Bool {
    request.headerFields[values: .connection].contains {
      $0.split(separator: ",").contains {
        $0.trimmingCharacters(in: .whitespaces).lowercased() == "close"
      }
    }
  }

  private func send(
    _ answer: Answer, head: Bool, close: Bool, context: ChannelHandlerContext
  ) {
    // Appended: an answer's own headers are never these.
    var headers = answer.headers
    if close { headers.append(HTTPField(name: .connection, value: "close")) }
    if let body = answer.body {
      headers.append(HTTPField(name: .contentLength, value: String(body.readableBytes)))
    }
    headers.append(HTTPField(name: .date, value: HTTPDate.now()))
    if let serverName { headers.append(HTTPField(name: .server, value: serverName)) }
    context.write(
      wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: headers))),
      promise: nil)
    if let body = answer.body, !head, body.readableBytes > 0 {
      context.write(wrapOutboundOut(.body(body)), promise: nil)
    }
    guard close else {
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      return
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  /// Whether a request's path (with its query) is `/v1/pull`.
  static func isPull(_ path: String?) -> Bool {
    guard let path, path.hasPrefix("/v1/pull") else { return false }
    let rest = path.utf8.dropFirst(8)
    return rest.isEmpty || rest.first == UInt8(ascii: "?")
  }

  /// What puts the `PullLane` `make` makes after the connection's
  /// `HTTPConnectionStateHandler` once the pipeline is whole (Hummingbird adds its own handlers
  /// after the ones it is given).
  static func installer(make: @escaping () -> PullLane) -> PipelineInstaller {
    PipelineInstaller { pipeline in
      guard let state = try? pipeline.handler(type: HTTPConnectionStateHandler.self) else {
        return false
      }
      try? pipeline.addHandler(make(), position: .after(state))
      return true
    }
  }
}
