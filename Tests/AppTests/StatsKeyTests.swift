import App
import FeedCore
import TestFixtures
import Testing

/// `i` on the feed opens the reader's stats; they scroll as the help does, within their rows,
/// and Esc, `q` or `i` go back to the feed as it was.
@Suite struct StatsKeyTests {
  @Test func iOpensTheStatsWhichScrollAndCloseBackToTheFeed() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
    guard case .card(let shown) = state.feed else {
      Issue.record("a card is on the feed")
      return
    }
    #expect(state.reduce(.key(.character("i"))) == [.loadStats])
    _ = state.reduce(.statsLoaded(Fixtures.readingStats))
    #expect(state.mode == .stats(StatsView(stats: Fixtures.readingStats)))
    let last =
      Geometry.statsRows(Fixtures.readingStats, width: 40) - Geometry.fullCardRows(height: 12)
    #expect(last > 0, "at 40x12 the stats scroll")
    _ = state.reduce(.key(.down))
    #expect(state.mode == .stats(StatsView(stats: Fixtures.readingStats, scroll: 1)))
    _ = state.reduce(.key(.end))
    #expect(state.mode == .stats(StatsView(stats: Fixtures.readingStats, scroll: last)))
    _ = state.reduce(.mouse(MouseEvent(.wheelUp, column: 5, row: 5)))
    #expect(state.mode == .stats(StatsView(stats: Fixtures.readingStats, scroll: last - 3)))
    _ = state.reduce(.resized(width: 80, height: 24))
    #expect(state.mode == .stats(StatsView(stats: Fixtures.readingStats, scroll: 0)))
    for key in [Key.escape, .character("q"), .character("i")] {
      _ = state.reduce(.statsLoaded(Fixtures.readingStats))
      #expect(state.reduce(.key(key)) == [])
      #expect(state.mode == .feed)
      guard case .card(let now) = state.feed else {
        Issue.record("the card is still on the feed")
        return
      }
      #expect(now.prepared.card == shown.prepared.card)
    }
  }
}
