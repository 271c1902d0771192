import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `ctfo` binary in a temporary CTFO_HOME.
struct CommandLine {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    /// stdout's lines parsed as JSON objects.
    var objects: [[String: Any]] {
      stdout.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }
  }

  /// The release binary: $CTFO_BINARY (the Makefile sets it), else .build/release/ctfo.
  static let binary: String = {
    if let path = ProcessInfo.processInfo.environment["CTFO_BINARY"] { return path }
    return repositoryRoot + "/.build/release/ctfo"
  }()

  static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  let home: String
  var environment: [String: String] = [:]
  /// The program run: the built `ctfo` unless a test installed a copy.
  var program = CommandLine.binary

  /// A fresh home folder; `bundled: false` hides the bundled decks.
  init(bundled: Bool = true) throws {
    home = NSTemporaryDirectory() + "ctfo-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    environment["CTFO_HOME"] = home
    if !bundled { environment["CTFO_BUNDLED_DECKS"] = "" }
  }

  /// Writes a file under the home folder and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let path = home + "/" + name
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  /// Runs `ctfo` with `arguments`; its standard output goes to `output` when given (the
  /// result's `stdout` is then empty). One that runs longer than `limit` seconds is killed and
  /// reported as `TimedOut`.
  func run(_ arguments: [String], output: String? = nil, limit: Double = 120) throws -> Result {
    guard FileManager.default.isExecutableFile(atPath: program) else {
      throw MissingBinary(path: program)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // A DO_NOT_TRACK of the machine's would turn analytics off: each test says its own.
    env["DO_NOT_TRACK"] = nil
    env.merge(environment) { _, new in new }
    process.environment = env
    // Files, not pipes: a large output cannot fill a pipe while the other one is read.
    let outPath = home + "/.stdout-\(UUID().uuidString)"
    let errPath = home + "/.stderr-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: outPath)
      try? FileManager.default.removeItem(atPath: errPath)
    }
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output ?? outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardInput = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    guard exited.wait(timeout: .now() + limit) == .success else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw TimedOut(
        program: URL(fileURLWithPath: program).lastPathComponent, arguments: arguments,
        seconds: limit)
    }
    return Result(
      status: process.terminationStatus,
      stdout: try String(contentsOfFile: outPath, encoding: .utf8),
      stderr: try String(contentsOfFile: errPath, encoding: .utf8))
  }

  func remove() { try? FileManager.default.removeItem(atPath: home) }
}

/// The program ran longer than a test allows, and was killed.
struct TimedOut: Error, CustomStringConvertible {
  var program: String
  var arguments: [String]
  var seconds: Double
  var description: String {
    "\(program) \(arguments.joined(separator: " ")) ran over \(seconds) s"
  }
}

struct MissingBinary: Error, CustomStringConvertible {
  var path: String
  var description: String {
    "no ctfo binary at \(path): run 'make test' (it builds the release binary first)"
  }
}
