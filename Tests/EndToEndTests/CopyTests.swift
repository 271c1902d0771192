import Foundation
import Testing

/// `y` through tmux (`set-clipboard on`): the app writes one OSC 52 sequence, whose base64
/// decodes to the card's sanitised title, text, source and link, tmux's paste buffer holds
/// the same text, and the hint bar says it was copied. `clipboard = false` writes none.
@Suite struct CopyTests {
  static let deck =
    [
      #"{"deck":"t","types":{"fact":{"label":"Fact","colour":"cyan"}}}"#,
      #"{"id":"f1","type":"fact","title":"Fact 01","body":"Bell\u0007 and escape\u001b[2J gone.\nSecond line.","source":"Src","url":"https://example.com/1"}"#,
    ].joined(separator: "\n") + "\n"

  static let copied = "Fact 01\n\nBell and escape[2J gone.\nSecond line.\n\nSrc\n\nhttps://example.com/1"

  /// The app on the one-card deck, its output logged to `log`.
  private static func app(clipboard: Bool, log: URL) async throws -> AppUnderTest {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    if !clipboard {
      try "clipboard = false\n".write(
        to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    }
    let app = try AppUnderTest(deck: deck, home: home)
    do {
      try app.tmux.command("set-option", "-s", "set-clipboard", "on")
      try app.tmux.command("pipe-pane", "-o", "-t", "0", "cat >> '\(log.path)'")
      _ = try await app.waitForCard(after: nil)
      return app
    } catch {
      app.stop()
      throw error
    }
  }

  /// The OSC 52 sequences in `log`, decoded.
  private static func sequences(in log: URL) throws -> [String] {
    let bytes = try String(contentsOf: log, encoding: .utf8)
    return bytes.components(separatedBy: "\u{1B}]52;c;").dropFirst().map { rest in
      let encoded = rest.prefix { $0 != "\u{07}" && $0 != "\u{1B}" }
      return Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) }
        ?? "not base64: \(encoded)"
    }
  }

  @Test func yCopiesTheCardWithOneOSC52Sequence() async throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-osc-\(UUID())")
    defer { try? FileManager.default.removeItem(at: log) }
    let app = try await Self.app(clipboard: true, log: log)
    defer { app.stop() }
    try app.tmux.send("y")
    try await app.tmux.waitFor(text: "Copied the card to the clipboard")
    try await Poll.until("tmux's buffer", seconds: 10, detail: { "" }) {
      (try? app.tmux.command("show-buffer")) == Self.copied
    }
    // pipe-pane's `cat` writes the log in its own time.
    try await Poll.until("the sequence in the log", seconds: 10, detail: { "" }) {
      try !Self.sequences(in: log).isEmpty
    }
    #expect(try Self.sequences(in: log) == [Self.copied])
  }

  @Test func clipboardFalseWritesNoSequence() async throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-osc-\(UUID())")
    defer { try? FileManager.default.removeItem(at: log) }
    let app = try await Self.app(clipboard: false, log: log)
    defer { app.stop() }
    try app.tmux.send("y")
    try await app.tmux.waitFor(text: "Copying is off")
    // The help is drawn after the key was handled: once the log holds it, it holds anything
    // the key wrote.
    try app.tmux.send("?")
    try await Poll.until("the help in the log", seconds: 10, detail: { "" }) {
      (try? String(contentsOf: log, encoding: .utf8))?.contains("copy the card") == true
    }
    #expect(try Self.sequences(in: log).isEmpty)
  }
}
