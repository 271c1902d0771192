import ArgumentParser
import Foundation

/// The interactive app (wired to the Screens module's run loop when it lands).
enum Interactive {
  static func run(_ global: GlobalOptions) async throws {
    guard isatty(0) == 1, isatty(1) == 1 else {
      Output.warn("ctfo: standard input and output must be a terminal for the interactive app; try 'ctfo next'")
      throw ExitCode(2)
    }
  }
}
