import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Answers an HTTP/1.0 request in HTTP/1.0, on a connection that ends with the answer: the
/// request is handed on saying `Connection: close` (what ends a connection for the router and
/// the pull lane), and the answer's head goes out as version 1.0. It sits before the
/// conversion to HTTP types, which drops the version.
final class HTTP10Answers: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Whether the request being answered is HTTP/1.0.
  private var old = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    old = head.version.major == 1 && head.version.minor == 0
    if old {
      head.headers.replaceOrAdd(name: "Connection", value: "close")
      head.version = .http1_1
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard old, case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
      context.write(data, promise: promise)
      return
    }
    head.version = .http1_0
    head.headers.replaceOrAdd(name: "Connection", value: "close")
    context.write(wrapOutboundOut(.head(head)), promise: promise)
  }

  /// What puts an `HTTP10Answers` before the connection's `HTTP1ToHTTPServerCodec` (the
  /// handlers Hummingbird is given go after it).
  static func installer() -> PipelineInstaller {
    PipelineInstaller { pipeline in
      guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else {
        return false
      }
      try? pipeline.addHandler(HTTP10Answers(), position: .before(codec))
      return true
    }
  }
}
