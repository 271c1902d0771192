import Foundation

/// A program run to its end, for a test that needs another process's view (the sqlite3 shell
/// reading a database this process holds open).
public enum Tool {
  public struct Failed: Error, CustomStringConvertible {
    public let description: String
  }

  /// What `program` printed, trimmed; throws when it exits with a failure.
  public static func output(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipes = (out: Pipe(), err: Pipe())
    (process.standardOutput, process.standardError) = (pipes.out, pipes.err)
    try process.run()
    let printed = pipes.out.fileHandleForReading.readDataToEndOfFile()
    let complaint = pipes.err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        description: "\(program) \(arguments) exited \(process.terminationStatus): "
          + String(decoding: complaint, as: UTF8.self))
    }
    return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
