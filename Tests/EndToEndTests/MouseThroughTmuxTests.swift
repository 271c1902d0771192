import Foundation
import Testing

/// The mouse through tmux, with the xterm SGR reports (mode 1006) a terminal sends: a drag of
/// the card swipes it, a click on a hint runs it, the wheel scrolls the history, and the modes
/// are on only while the app runs, where terminfo names a mouse, unless `mouse = false`.
@Suite struct MouseThroughTmuxTests {
  /// An SGR report of the left button at the 0-based cell `column`, `row`: "M" for a press
  /// (32 added for a move), "m" for a release; 64 and 65 are the wheel.
  private static func report(_ button: Int, _ column: Int, _ row: Int, release: Bool = false)
    -> String
  {
    "\u{1B}[<\(button);\(column + 1);\(row + 1)\(release ? "m" : "M")"
  }

  /// The pane's mouse modes as tmux tracks them: SGR (1006) and button-event (1002).
  private static func modes(_ app: AppUnderTest) throws -> String {
    try app.tmux.format("#{mouse_sgr_flag}#{mouse_button_flag}")
  }

  private static func app(term: String? = nil, config: String? = nil) throws -> AppUnderTest {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    if let config {
      try config.write(
        to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    }
    return try AppUnderTest(
      deck: TestDeck.make(facts: 6, words: 0), environment: term.map { ["TERM": $0] } ?? [:],
      home: home)
  }

  /// tmux's own terminal type ("screen", whose `kmous` is X10's start) and xterm's (whose
  /// `kmous` is the SGR report's start, so ncurses hands it over as KEY_MOUSE).
  @Test(arguments: ["screen", "xterm-256color"])
  func aDragOfTheCardPastAThirdSwipesRight(term: String) async throws {
    let app = try Self.app(term: term)
    defer { app.stop() }
    let first = try await app.waitForCard(after: nil)
    #expect(try Self.modes(app) == "11")
    let box = try #require(CardBox.find(try app.tmux.screen()))
    let (x, y) = ((box.left + box.right) / 2, (box.top + box.bottom) / 2)
    let width = box.right - box.left + 1
    // Short of a third the card follows the pointer, then settles back.
    try app.tmux.type(Self.report(0, x, y) + Self.report(32, x + 8, y))
    try await app.tmux.waitFor("the card moved 8 columns") {
      Self.left($0) == box.left + 8 && Self.has(first, $0)
    }
    try app.tmux.type(Self.report(0, x + 8, y, release: true))
    try await app.tmux.waitFor("the card back") { Self.left($0) == box.left }
    // Past a third, letting go swipes it right.
    let past = x + width / 3 + 2
    let moves = (Array(stride(from: x, to: past, by: 5)) + [past]).map { Self.report(32, $0, y) }
    try app.tmux.type(Self.report(0, x, y) + moves.joined())
    try await app.tmux.waitFor(text: "Let go to swipe right: TFU")
    try app.tmux.type(Self.report(0, past, y, release: true))
    let second = try await app.waitForCard(after: first)
    #expect(second != first)
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")
    #expect(try Self.modes(app) == "00", "the modes are off after the app")
    #expect(try app.recordedReactions()[first] == "TFU")
  }

  /// The column of the card box's top left corner, wherever its right side is.
  private static func left(_ screen: [String]) -> Int? {
    screen.lazy.compactMap { row in
      row.firstIndex(of: "┌").map { row.distance(from: row.startIndex, to: $0) }
    }.first
  }

  private static func has(_ title: String, _ screen: [String]) -> Bool {
    screen.contains { $0.contains(title) }
  }

  @Test func aClickOnAHintRunsItAndTheWheelMovesTheHistory() async throws {
    let app = try Self.app()
    defer { app.stop() }
    var title = try await app.waitForCard(after: nil)
    try app.tmux.send("?")
    try await app.tmux.waitFor(text: "drag the card to swipe")
    try app.tmux.send("Escape")
    for _ in 0..<3 {
      try app.tmux.send("Right")
      title = try await app.waitForCard(after: title)
    }
    let bar = try app.tmux.screen()[23]
    let history = try #require(bar.range(of: "history"))
    try app.tmux.type(Self.report(0, bar.distance(from: bar.startIndex, to: history.lowerBound), 23))
    try await app.tmux.waitFor(text: "History (4 cards")
    try app.tmux.type(Self.report(65, 10, 5) + Self.report(65, 10, 5))
    // The selected row is drawn in reverse; the third row of the list (row 4) holds it.
    try await app.tmux.waitFor("the third entry selected") { _ in
      let rows = (try? app.tmux.screen(escapes: true)) ?? []
      return rows.count > 4 && rows[4].contains("\u{1B}[7m")
    }
    // A click on a row selects it; a second click opens it.
    try app.tmux.type(Self.report(0, 10, 2) + Self.report(0, 10, 2, release: true))
    try app.tmux.type(Self.report(0, 10, 2) + Self.report(0, 10, 2, release: true))
    try await app.tmux.waitFor(text: "Esc back")
    try await app.tmux.waitFor(text: "Body of fact")
  }

  @Test func noMouseWithMouseFalseOrWhereTerminfoNamesNone() async throws {
    for (term, config) in [(nil, "mouse = false\n"), ("vt100", nil)] as [(String?, String?)] {
      let app = try Self.app(term: term, config: config)
      defer { app.stop() }
      let first = try await app.waitForCard(after: nil)
      #expect(try Self.modes(app) == "00", "\(term ?? "screen") \(config ?? "")")
      try app.tmux.send("Right")
      _ = try await app.waitForCard(after: first)
    }
  }
}
