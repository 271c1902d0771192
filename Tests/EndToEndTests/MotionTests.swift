import Foundation
import Testing

/// `motion = "none"`, `--no-motion` and `CTFO_REDUCE_MOTION=1` draw a swipe as one frame. Each
/// frame of the slide-out is held for a minute here (`CTFO_TEST_FRAME_MS`): with motion, the
/// screen after → shows the swiped card moved right for that minute; without, the next card
/// stands settled where the card stood at once.
@Suite struct MotionTests {
  static let heldFrames = ["CTFO_TEST_FRAME_MS": "60000"]

  /// Starts the app with the frames held and motion turned off `how`.
  private static func app(motion how: String) throws -> AppUnderTest {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    var environment = heldFrames
    var arguments: [String] = []
    switch how {
    case "config":
      try "motion = \"none\"\n".write(
        to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    case "flag": arguments = ["--no-motion"]
    case "environment": environment["CTFO_REDUCE_MOTION"] = "1"
    default: break
    }
    return try AppUnderTest(
      deck: TestDeck.make(facts: 5, words: 5), environment: environment, home: home,
      arguments: arguments)
  }

  @Test(arguments: ["config", "flag", "environment"])
  func withoutMotionASwipeSettlesInOneFrame(how: String) async throws {
    let app = try Self.app(motion: how)
    defer { app.stop() }
    let first = try await app.waitForShownCard(after: nil)
    let box = try #require(CardBox.find(try app.tmux.screen()))
    try app.tmux.send("Right")
    // With motion, the swiped card would fill this wait, one held frame after another.
    let next = try await app.waitForShownCard(after: first)
    #expect(next.title != first.title)
    let settled = try #require(CardBox.find(try app.tmux.screen()))
    #expect((settled.left, settled.top) == (box.left, box.top))
  }

  /// The control: the same held frames with the default motion show the slide-out.
  @Test func withMotionTheSwipedCardMovesRight() async throws {
    let app = try Self.app(motion: "default")
    defer { app.stop() }
    let first = try await app.waitForShownCard(after: nil)
    let box = try #require(CardBox.find(try app.tmux.screen()))
    try app.tmux.send("Right")
    // The moved card runs past the right edge, so its box has no "┐" to find it by.
    try await app.tmux.waitFor("\(first.title) moved right") { screen in
      let corners = screen.compactMap { Array($0).firstIndex(of: "┌") }
      return corners.count == 1 && corners[0] > box.left
        && screen.contains { $0.contains(first.title) }
    }
  }
}
