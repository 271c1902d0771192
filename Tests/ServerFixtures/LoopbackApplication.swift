import CTFOServer
import Hummingbird
import HummingbirdCore
import Logging
import TestFixtures

/// A ctfo-server's router and HTTP server (`Routes.service`) running in the test's process on
/// 127.0.0.1 with a free port, until `stop`.
public final class LoopbackApplication: Sendable {
  public let port: Int
  private let task: Task<Void, any Error>

  /// Starts `service` and waits until it listens; `logger` is the application's.
  public init(
    _ service: (router: Router<CTFOContext>, server: HTTPServerBuilder), logger: Logger
  ) async throws {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: service.router, server: service.server,
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
      logger: logger)
    task = Task { try await app.runService(gracefulShutdownSignals: []) }
    port = try await within("the server to listen") {
      var iterator = ports.makeAsyncIterator()
      return await iterator.next() ?? 0
    }
  }

  public func stop() async {
    task.cancel()
    _ = try? await task.value
  }
}
