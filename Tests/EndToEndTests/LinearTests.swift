import Foundation
import Testing

/// `ctfo --linear` through tmux: each card printed once as plain lines with a line of keys,
/// one line per action, the same keys acting, and not one escape sequence in all it writes.
@Suite struct LinearTests {
  @Test func plainLinesALinePerActionAndNoEscape() async throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-linear-\(UUID())")
    defer { try? FileManager.default.removeItem(at: log) }
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5), arguments: ["--linear"])
    defer { app.stop() }
    try app.tmux.command("pipe-pane", "-o", "-t", "0", "cat >> '\(log.path)'")
    let first = try await app.tmux.waitFor(text: "Keys: → TFU")
    let title = try #require(AppUnderTest.cardTitle(first))
    try app.tmux.send("Right")
    try await app.tmux.waitFor(text: "Swiped right (TFU, liked it). 1 swipe can be undone.")
    try app.tmux.send("u")
    try await app.tmux.waitFor(text: "Undone. 0 swipes can be undone.")
    // The card that came back is printed again, last.
    let back = try await app.tmux.waitFor("\(title) printed again") { screen in
      screen.lastIndex { $0.contains(title) } ?? 0 > screen.lastIndex { $0.hasPrefix("Undone.") } ?? .max
    }
    #expect(back.contains { $0.hasPrefix("#1. Keys:") }, "\(back)")
    try app.tmux.send("?")
    try await app.tmux.waitFor(text: "search the history")
    // The stats as sentences: no chart for a screen reader.
    try app.tmux.send("Escape", "i")
    try await app.tmux.waitFor(text: "By type, the most liked first:")
    try app.tmux.send("Escape", "q")
    try await app.tmux.waitFor(text: "exit=0")
    try await Poll.until("the log to hold the exit", seconds: 10, detail: { "" }) {
      String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).contains("exit=0")
    }
    let bytes = [UInt8](try Data(contentsOf: log))
    #expect(bytes.contains(UInt8(ascii: "S")))
    #expect(!bytes.contains(0x1B), "\(String(decoding: bytes, as: UTF8.self))")
  }
}
