import Foundation
import Testing

/// `--ascii` (and `ascii = true`, `CTFO_ASCII=1`) through tmux: on a deck of ASCII text, every
/// byte the app writes while it shows a card, slides it out, opens its whole view, the history
/// and the help is 0x7F or below; without it the same run writes box lines.
@Suite struct AsciiTests {
  /// Runs the app `how`, goes through its screens, quits; returns the bytes it wrote.
  private static func bytesWritten(_ how: String) async throws -> [UInt8] {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-ascii-\(UUID())")
    defer { try? FileManager.default.removeItem(at: log) }
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    var environment: [String: String] = [:]
    var arguments: [String] = []
    switch how {
    case "flag": arguments = ["--ascii"]
    case "config":
      try "ascii = true\n".write(
        to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    case "environment": environment["CTFO_ASCII"] = "1"
    default: break
    }
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5), environment: environment, home: home,
      arguments: arguments)
    defer { app.stop() }
    // The app's first frame may come before the log starts; every screen after it is logged.
    try app.tmux.command("pipe-pane", "-o", "-t", "0", "cat >> '\(log.path)'")
    // The hint bar's arrows are ASCII too: "> TFU" where it would read "→ TFU".
    let hint = how == "default" ? "→ TFU" : "> TFU"
    func card(after previous: String?) async throws -> String {
      let screen = try await app.tmux.waitFor("a card after \(previous ?? "none")") { screen in
        screen.contains { $0.contains(hint) }
          && AppUnderTest.cardTitle(screen).map { $0 != previous } ?? false
      }
      return AppUnderTest.cardTitle(screen)!
    }
    let first = try await card(after: nil)
    for key in ["Right", "Enter", "Escape", "Down", "Escape", "?", "Escape", "q"] {
      try app.tmux.send(key)
      if key == "Right" { _ = try await card(after: first) }
    }
    try await app.tmux.waitFor(text: "exit=0")
    // pipe-pane's `cat` writes in its own time: the log is whole once it holds the exit line.
    try await Poll.until("the log to hold the exit", seconds: 10, detail: { "" }) {
      String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).contains("exit=0")
    }
    return [UInt8](try Data(contentsOf: log))
  }

  @Test(arguments: ["flag", "config", "environment"])
  func noByteAbove0x7F(how: String) async throws {
    let bytes = try await Self.bytesWritten(how)
    #expect(!bytes.isEmpty)
    // What the pane's shell prints after the app (`stty -a`) is ASCII too.
    let high = bytes.filter { $0 > 0x7F }
    #expect(high.isEmpty, "\(high.count) bytes above 0x7F: \(String(decoding: bytes, as: UTF8.self))")
  }

  @Test func withoutItBoxLinesAreDrawn() async throws {
    let bytes = try await Self.bytesWritten("default")
    #expect(String(decoding: bytes, as: UTF8.self).contains("│"))
  }
}
