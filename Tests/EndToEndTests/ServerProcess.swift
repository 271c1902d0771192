import Foundation
import TestFixtures

/// The `ctfo-server` binary on 127.0.0.1 with a free port and a store of its own: started by a
/// test, stopped (SIGTERM, a graceful shutdown) when the test is done.
final class ServerProcess {
  let port: Int
  let data: String
  private let process = Process()
  private let exited = DispatchSemaphore(value: 0)

  /// The release server: CTFO_SERVER_BINARY (the Makefile sets it), else where `make build`
  /// puts it, `.build/server/release/ctfo-server` beside `ctfo`'s `.build/release`.
  static var binary: String {
    ProcessInfo.processInfo.environment["CTFO_SERVER_BINARY"]
      ?? ((CommandLine.binary as NSString).deletingLastPathComponent as NSString)
      .deletingLastPathComponent + "/server/release/ctfo-server"
  }

  /// The debug server, the one with `--test-faults` (a release build has no such option):
  /// CTFO_SERVER_DEBUG_BINARY (the Makefile sets it), else `.build/debug/ctfo-server`.
  static var debugBinary: String {
    ProcessInfo.processInfo.environment["CTFO_SERVER_DEBUG_BINARY"]
      ?? CommandLine.repositoryRoot + "/.build/debug/ctfo-server"
  }

  /// Starts the server on `deck` (JSON Lines), with more `options` (`--pull-body-limit 20`);
  /// `data` and `port` restart a stopped server on its store and its port with a new deck;
  /// `openFiles` starts it with that soft limit of open files (through prlimit(1)), the hard
  /// limit too when `hardLimit`; `log` is a file its stderr (its log) goes to.
  init(
    deck: String, options: [String] = [], data: String? = nil, port: Int? = nil,
    openFiles: Int? = nil, hardLimit: Bool = false, log: String? = nil
  ) throws {
    self.data = data ?? NSTemporaryDirectory() + "ctfo-server-" + UUID().uuidString
    let data = self.data
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let deckPath = data + "/deck.jsonl"
    try deck.write(toFile: deckPath, atomically: true, encoding: .utf8)
    // The fault switch is in debug builds only.
    let binary = options.contains("--test-faults") ? Self.debugBinary : Self.binary
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw TmuxDriver.Failure(
        description: "no ctfo-server at \(binary): run 'make build' or set CTFO_SERVER_BINARY")
    }
    let arguments = ["--port", "\(port ?? 0)", "--data", data, "--deck", deckPath] + options
    if let openFiles {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments =
        ["prlimit", "--nofile=\(openFiles):\(hardLimit ? "\(openFiles)" : "")", binary]
        + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
    }
    let exited = self.exited
    process.terminationHandler = { _ in exited.signal() }
    if let log {
      _ = FileManager.default.createFile(atPath: log, contents: nil)
      process.standardError = FileHandle(forWritingAtPath: log)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    let (port, said) = try ListeningProcess.start(process, saying: "listening on ")
    guard let port else {
      throw TmuxDriver.Failure(description: "ctfo-server did not start: \(said)")
    }
    self.port = port
  }

  var url: String { "http://127.0.0.1:\(port)" }

  /// The server's process id (prlimit execs it, so the same process).
  var pid: Int32 { process.processIdentifier }

  /// Sets the test fault switch's rules (the server must run with `--test-faults`), as JSON:
  /// `[{"path":"/v1/pull","status":503}]`.
  func faults(_ rules: String) throws {
    let answer = try Self.curl([
      "-X", "PUT", "-d", #"{"rules":"# + rules + "}", url + "/_test/faults",
    ])
    guard answer.status == 204 else {
      throw TmuxDriver.Failure(description: "PUT /_test/faults answered \(answer)")
    }
  }

  /// What the fault switch logged: requests by path, the most in flight, those in flight now.
  struct Log: Decodable {
    var total: Int
    var byPath: [String: Int]
    var maxInFlight: Int
    var inFlight: Int
    var requests: [Seen]

    struct Seen: Decodable {
      var method: String
      var path: String
      var authorization: Bool
    }
  }

  func log() throws -> Log {
    let answer = try Self.curl([url + "/_test/requests"])
    guard answer.status == 200 else {
      throw TmuxDriver.Failure(description: "GET /_test/requests answered \(answer)")
    }
    return try JSONDecoder().decode(Log.self, from: Data(answer.body.utf8))
  }

  /// curl's answer: the status (0 without one) and the body.
  static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
    let command = Process()
    command.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    command.arguments = ["curl", "-s", "-m", "10", "-w", "\n%{http_code}"] + arguments
    let output = Pipe()
    command.standardOutput = output
    try command.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    command.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let cut = text.lastIndex(of: "\n") ?? text.startIndex
    return (Int(text[cut...].dropFirst()) ?? 0, String(text[..<cut]))
  }

  /// Runs the server with `arguments` that it should refuse: its exit status and what it said
  /// on standard error. Run as `CommandLine` runs `ctfo`, so a server that starts instead of
  /// refusing is killed after 30 s and the test fails (`TimedOut`), rather than waiting forever.
  static func refused(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
    var command = try CommandLine()
    defer { command.remove() }
    command.program = binary
    let result = try command.run(arguments, limit: 30)
    return (result.status, result.stderr)
  }

  /// Runs an operator command (`score`, `notify`, `events`) on this server's store; returns
  /// what it printed.
  @discardableResult
  func operate(_ arguments: [String]) throws -> String {
    let command = Process()
    command.executableURL = URL(fileURLWithPath: Self.binary)
    command.arguments = arguments + ["--data", data]
    let out = Pipe()
    command.standardOutput = out
    try command.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    command.waitUntilExit()
    guard command.terminationStatus == 0 else {
      throw TmuxDriver.Failure(description: "ctfo-server \(arguments) failed")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Sends SIGTERM; true when the server exits within `seconds` (else it is killed).
  func stop(within seconds: Double) -> Bool {
    if process.isRunning { process.terminate() }
    let stopped = exited.wait(timeout: .now() + seconds) == .success
    if !stopped { kill(pid, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: data)
    return stopped
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
