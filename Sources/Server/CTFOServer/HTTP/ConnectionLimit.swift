import HummingbirdCore
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// How many connections the server holds at once: what its limit of open files leaves after
/// `reserve` for the store, the log and the event loops. At the cap the server stops
/// accepting (the kernel's backlog holds the next ones) until a connection ends, and says so
/// in the log, once a minute at most. Without it, a full file table made `accept` fail at
/// once, again and again: the listening socket stays readable, and the server spun with
/// nothing logged.
public struct ConnectionLimit: AvailableConnectionsDelegate {
  public let maximum: Int
  private var open = 0
  private let logger: Logger
  private let throttle: LogThrottle

  public init(maximum: Int, logger: Logger, throttle: Duration = .seconds(60)) {
    self.maximum = max(1, maximum)
    self.logger = logger
    self.throttle = LogThrottle(interval: throttle)
  }

  /// The cap for this process's current limit of open files, less `reserve`.
  public static func forOpenFileLimit(reserve: Int = 64, logger: Logger) -> ConnectionLimit {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    let files = getrlimit(resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : 1024
    return ConnectionLimit(maximum: files - reserve, logger: logger)
  }

  public mutating func connectionOpened() { open += 1 }
  public mutating func connectionClosed() { open -= 1 }

  public func isAcceptingNewConnections() -> Bool {
    guard open >= maximum else { return true }
    if let held = throttle.admit() {
      let more = held > 0 ? " (\(held) more times since the last line)" : ""
      logger.warning(
        "\(open) connections open, the most the limit of open files allows: new connections wait\(more)")
    }
    return false
  }
}
