import NIOCore

/// Adds a handler to its connection's pipeline where it belongs once the pipeline holds what
/// it goes beside (Hummingbird adds its own handlers after the ones it is given), then leaves.
/// `install` adds it and says true, or says false while the pipeline is not whole yet.
final class PipelineInstaller: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny
  private let install: (ChannelPipeline.SynchronousOperations) -> Bool

  init(install: @escaping (ChannelPipeline.SynchronousOperations) -> Bool) {
    self.install = install
  }

  // The event goes on before the installer leaves: a context removed passes nothing on.
  func channelActive(context: ChannelHandlerContext) {
    let installed = install(context.pipeline.syncOperations)
    context.fireChannelActive()
    if installed { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let installed = install(context.pipeline.syncOperations)
    context.fireChannelRead(data)
    if installed { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
  }
}
