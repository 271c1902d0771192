import Logging
import Synchronization

/// The lines a server logged at `debug` and above: each one's level, and its message with its
/// metadata.
public final class LoggedLines: Sendable {
  private let lines = Mutex<[(level: Logger.Level, text: String)]>([])

  public init() {}

  public var all: [(level: Logger.Level, text: String)] { lines.withLock { $0 } }

  /// A logger whose lines go here.
  public func logger(label: String = "ctfo-server") -> Logger {
    Logger(label: label) { [self] _ in Handler(lines: self) }
  }

  struct Handler: LogHandler {
    let lines: LoggedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let text = "\(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })"
      let level = event.level
      lines.lines.withLock { $0.append((level, text)) }
    }
  }
}
