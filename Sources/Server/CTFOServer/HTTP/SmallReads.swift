import NIOCore

/// Reads its connection 8 KiB at a time, not up to 64 KiB: what a connection holds before its
/// handler takes it is a few reads (the channel's backpressure), so a thousand connections
/// sending bodies at once hold megabytes, not hundreds of them.
final class SmallReads: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  func handlerAdded(context: ChannelHandlerContext) {
    try? context.channel.syncOptions?.setOption(
      ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 8192))
  }
}
