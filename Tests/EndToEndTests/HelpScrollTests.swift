import Foundation
import Testing

/// At 40x12 the help screen says there is more and scrolls to its last key.
@Suite(.serialized) struct HelpScrollTests {
  @Test func theHelpScrollsToItsLastLineAtFortyByTwelve() async throws {
    let app = try AppUnderTest(deck: TestDeck.make(facts: 3, words: 0), width: 40, height: 12)
    defer { app.stop() }
    _ = try await app.waitForShownCard(after: nil)
    try app.tmux.send("?")
    let top = try await app.tmux.waitFor(text: "↓ more")
    #expect(!top.contains { $0.contains("Esc  q") }, "\(top)")
    try app.tmux.send("End")
    let end = try await app.tmux.waitFor(text: "↑ more")
    #expect(end.contains { $0.contains("Esc  q") && $0.contains("back") }, "\(end)")
    try app.tmux.send("Home")
    try await app.tmux.waitFor(text: "↓ more")
  }
}
