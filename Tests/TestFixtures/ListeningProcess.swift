import Foundation

/// A program a test starts that says on its standard output where it listens (`ctfo-server`'s
/// "listening on 127.0.0.1:PORT", `openssl s_server`'s "ACCEPT 127.0.0.1:PORT"): started, and
/// waited for until it says so.
public enum ListeningProcess {
  /// Runs `process` (its standard output is taken here) and reads what it prints until a line
  /// that starts with `prefix` names a port after its last `:`. A process that has not said so
  /// within `seconds` is stopped, which ends the read. `port` is nil when it ended first;
  /// `said` is what it printed until then.
  public static func start(
    _ process: Process, saying prefix: String, within seconds: Int = 10
  ) throws -> (port: Int?, said: String) {
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let listening = DispatchSemaphore(value: 0)
    let watched = process
    Thread.detachNewThread {
      if listening.wait(timeout: .now() + .seconds(seconds)) == .timedOut { watched.terminate() }
    }
    defer { listening.signal() }
    var said = Data()
    while true {
      if let port = port(in: said, after: prefix) {
        return (port, String(decoding: said, as: UTF8.self))
      }
      let more = output.fileHandleForReading.availableData
      guard !more.isEmpty else { return (nil, String(decoding: said, as: UTF8.self)) }
      said += more
    }
  }

  /// The port a whole line of `said` that starts with `prefix` names after its last `:`.
  static func port(in said: Data, after prefix: String) -> Int? {
    let text = String(decoding: said, as: UTF8.self)
    guard let end = text.lastIndex(of: "\n") else { return nil }
    for line in text[..<end].split(separator: "\n") where line.hasPrefix(prefix) {
      guard let colon = line.lastIndex(of: ":") else { continue }
      if let port = Int(line[line.index(after: colon)...].prefix { $0.isNumber }) { return port }
    }
    return nil
  }
}
