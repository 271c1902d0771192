import Foundation
import Testing

/// The reaction hook is given every reaction that became final, once, across a quit: those still
/// waiting for a slow hook at the quit, and the undo window `on-launch = "ignore"` drops.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HookAcrossRelaunchTests {
  private let deck = TestDeck.make(facts: 30, words: 30)

  /// The titles of the cards the hook was given, in order.
  private static func given(_ file: URL) -> [String] {
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["title"] as? String
    }
  }

  /// On screen: six cards swiped right with an undo window of one and a hook that takes two
  /// seconds; q quits while the hook is behind. Not the screen: after a relaunch the hook has
  /// been given each of the six once, in the order they were swiped: five made final while the
  /// app ran, the last one dropped from the undo window at the launch.
  @Test func reactionsWaitingAtQuitAndDroppedAtLaunchReachTheHookOnce() async throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-hook-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let out = home.appendingPathComponent("given.jsonl")
    try """
    undo-limit = 1
    on-launch = "ignore"

    [hooks]
    reaction = "cat >> '\(out.path)'; sleep 2"
    """.write(to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)

    let first = try AppUnderTest(deck: deck, home: home)
    defer { first.stop() }
    var swiped: [String] = []
    var title = try await first.waitForCard(after: nil)
    for _ in 0..<6 {
      try first.tmux.send("Right")
      swiped.append(title)
      title = try await first.waitForCard(after: title)
    }
    try first.tmux.send("q")
    try await first.tmux.waitFor(text: "exit=0")
    first.tmux.kill()
    #expect(Self.given(out).count < 6, "the hook is behind at the quit")

    let second = try AppUnderTest(deck: deck, home: home)
    defer { second.stop() }
    _ = try await second.waitForCard(after: nil)
    try await Poll.until(
      "the hook to be given six reactions", seconds: 60,
      detail: { "; it was given \(Self.given(out))" }
    ) { Self.given(out).count >= 6 }
    #expect(Self.given(out) == swiped)
    try second.tmux.send("q")
    try await second.tmux.waitFor(text: "exit=0")
    second.tmux.kill()
  }
}
