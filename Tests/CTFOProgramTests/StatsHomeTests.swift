import App
import CardText
import FeedCore
import Screens
import Store
import TestFixtures
import Testing

@testable import CTFOProgram

/// The stats of a home with a known history, at a known time: the app's screen at 80x24,
/// 60x20 and 40x12 and `ctfo stats`'s text, compared with snapshots, and `--json`'s numbers.
@Suite struct StatsHomeTests {
  let snapshots = Snapshot(besides: #filePath)
  /// 2025-11-28 (a Friday) at 10:00 UTC.
  static let now = 20_420.0 * 86_400 + 10 * 3600

  /// A home whose decks hold 6 facts and 4 words, and whose history is 3 days of swipes:
  /// facts liked more than words, one swipe undone, one card shown and not swiped.
  private func stats() throws -> ReadingStats {
    let folder = try TemporaryFolder("ctfo-stats")
    let database = try StateDatabase(path: folder.path("state.sqlite"))
    let deck = try folder.deck(
      "d.jsonl",
      [#"{"deck":"t","types":{"fact":{"label":"Fact"},"word":{"label":"単語 Word"}}}"#]
        + (0..<6).map { cardLine("f\($0)") } + (0..<4).map { cardLine("w\($0)", type: "word") })
    _ = try DeckIndex(database: database).sync(decks: [deck])
    let state = StateStore(database: database)
    let day = 86_400.0
    let history: [(String, String, Double, SwipeDirection?)] = [
      ("f0", "fact", Self.now - 2 * day, .up), ("w0", "word", Self.now - 2 * day, .left),
      ("f1", "fact", Self.now - day, .right), ("f2", "fact", Self.now - day, .up),
      ("w1", "word", Self.now - day, .left), ("f3", "fact", Self.now - 60, .right),
      ("w2", "word", Self.now - 50, .up), ("f4", "fact", Self.now - 40, nil),
    ]
    try state.append(history.map { ShownRecord(cardID: $0.0, type: $0.1, title: nil, shownAt: $0.2) })
    for (index, entry) in history.enumerated() {
      guard let direction = entry.3 else { continue }
      let swipe = Tombstone(historyIndex: index, cardID: entry.0, type: entry.1, direction: direction)
      try state.apply(StateChange(effects: [.entomb(swipe)], time: entry.2))
    }
    let undone = Tombstone(historyIndex: 6, cardID: "w2", type: "word", direction: .up)
    try state.apply(StateChange(effects: [.restore(undone)], time: Self.now - 30))
    return try state.readingStats(now: Self.now, utcOffset: 0)
  }

  @Test func theAppsStatsScreenAtThreeSizesAndTheCommandsText() throws {
    let stats = try stats()
    #expect(stats.swipes == 6 && stats.shown == 8 && stats.streak == 3)
    #expect(stats.days.suffix(3).map(\.swipes) == [2, 3, 1])
    #expect(stats.types.map(\.type) == ["fact", "word"])
    for (width, height) in [(80, 24), (60, 20), (40, 12)] {
      var state = AppState(width: width, height: height)
      state.types = Fixtures.types
      _ = state.reduce(.statsLoaded(stats))
      var grid = CellGrid(width: width, height: height)
      AppScreen.render(state, into: &grid, colour: true)
      snapshots.assert(grid, named: "stats-home")
    }
    let text = StatsCommand.text(stats, width: 80, ascii: false, mark: .ellipsis)
    let grid = StatsScreen.render(stats, width: 80, ascii: false, mark: .ellipsis, colour: false)
    snapshots.assert(grid, named: "stats-command")
    #expect(text.count == grid.height)
    #expect(text[0] == " 6 swipes of 8 cards shown")
  }
}
