import Foundation

/// The `ctfo-server` binary on 127.0.0.1 with a free port and a store of its own: started by a
/// test, stopped (SIGTERM, a graceful shutdown) when the test is done.
final class ServerProcess {
  let port: Int
  let data: String
  private let process = Process()

  /// The release server: CTFO_SERVER_BINARY (the Makefile sets it), else beside `ctfo`.
  static var binary: String {
    ProcessInfo.processInfo.environment["CTFO_SERVER_BINARY"]
      ?? (CommandLine.binary as NSString).deletingLastPathComponent + "/ctfo-server"
  }

  /// Starts the server on `deck` (JSON Lines), with more `options` (`--pull-body-limit 20`).
  init(deck: String, options: [String] = []) throws {
    data = NSTemporaryDirectory() + "ctfo-server-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let deckPath = data + "/deck.jsonl"
    try deck.write(toFile: deckPath, atomically: true, encoding: .utf8)
    guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
      throw TmuxDriver.Failure(
        description: "no ctfo-server at \(Self.binary): run 'make build' or set CTFO_SERVER_BINARY")
    }
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["--port", "0", "--data", data, "--deck", deckPath] + options
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A server that has not said where it listens within ten seconds is stopped, which ends
    // the read below.
    let listening = DispatchSemaphore(value: 0)
    let watched = process
    Thread.detachNewThread {
      if listening.wait(timeout: .now() + 10) == .timedOut { watched.terminate() }
    }
    var said = Data()
    while !said.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      guard !more.isEmpty else { break }
      said += more
    }
    listening.signal()
    let line = String(decoding: said, as: UTF8.self)
    guard line.hasPrefix("listening on "), let colon = line.lastIndex(of: ":"),
      let port = Int(line[line.index(after: colon)...].prefix { $0.isNumber })
    else { throw TmuxDriver.Failure(description: "ctfo-server did not start: \(line)") }
    self.port = port
  }

  var url: String { "http://127.0.0.1:\(port)" }

  /// Runs an operator command (`score`, `notify`) on this server's store.
  func operate(_ arguments: [String]) throws {
    let command = Process()
    command.executableURL = URL(fileURLWithPath: Self.binary)
    command.arguments = arguments + ["--data", data]
    try command.run()
    command.waitUntilExit()
    guard command.terminationStatus == 0 else {
      throw TmuxDriver.Failure(description: "ctfo-server \(arguments) failed")
    }
  }

  /// Stops the server with SIGTERM; returns its exit status.
  @discardableResult
  func stop() -> Int32 {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: data)
    return process.terminationStatus
  }
}
