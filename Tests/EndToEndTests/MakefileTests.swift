import Foundation
import Testing

/// What each `make` target builds, read from `make -n` (nothing is run).
@Suite struct MakefileTests {
  private func plan(_ target: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
    process.arguments = ["-n", "-C", CommandLine.repositoryRoot, target]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  /// `make run` builds the app alone (it waited for the server's ten-minute
  /// build); the server's targets and the tests build the server.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
  func runBuildsTheAppAloneAndTheServersTargetsBuildTheServer() throws {
    let run = try plan("run")
    #expect(run.contains("--product ctfo\n") && !run.contains("ctfo-server"), "\(run)")
    for target in ["serve", "test", "install", "build"] {
      #expect(try plan(target).contains("--product ctfo-server"), "\(target)")
    }
    #expect(try !plan("serve").contains("--product ctfo\n"))
  }

  /// Every build and test passes the same colour setting, in a terminal or a pipe (SwiftPM's
  /// own choice differs between the two, and compiles every package manifest again).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
  func everySwiftCommandTakesTheSameColourSetting() throws {
    let commands = try ["build", "test", "serve", "run"].flatMap { target in
      try plan(target).split(separator: "\n").filter {
        $0.contains("swift build") || $0.contains("swift test") || $0.contains("swift-build.sh")
      }
    }
    #expect(commands.count >= 5)
    for command in commands { #expect(command.contains("--no-color-diagnostics"), "\(command)") }
  }
}
