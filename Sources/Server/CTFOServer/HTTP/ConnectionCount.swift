import NIOCore
import Prometheus

/// Counts a connection open from the moment the server takes it until it closes.
final class ConnectionCount: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny
  let gauge: Gauge

  init(gauge: Gauge) {
    self.gauge = gauge
  }

  func handlerAdded(context: ChannelHandlerContext) {
    gauge.increment()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    gauge.decrement()
  }
}
