import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// The offline mark sits at the right end of the feed's hint bar; the notification takes the
/// row above it, its text sanitised and cut to the row, with the key that dismisses it.
@Suite struct ServerLineScreenTests {
  private func rows(_ state: AppState, width: Int = 80) -> [String] {
    var grid = CellGrid(width: width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines
  }

  private func feed(width: Int = 80, _ line: ServerLine) -> AppState {
    var state = AppState(width: width, height: 24)
    let card = Fixtures.prepared(Fixtures.asciiCard, width: width, height: 24)
    _ = state.reduce(.dealt(.card(card), position: 0))
    _ = state.reduce(.serverChanged(line))
    return state
  }

  @Test func offlineIsAQuietMarkBesideTheHints() {
    let bar = rows(feed(ServerLine(offline: true))).last ?? ""
    #expect(bar.hasSuffix("offline "), "\(bar)")
    #expect(bar.contains("? help"), "\(bar)")
    #expect(!(rows(feed(ServerLine())).last ?? "").contains("offline"))
  }

  /// Analytics waiting for a sink that cannot be reached show as a small count.
  @Test func eventsQueuedOfflineShowAsASmallCount() {
    let both = rows(feed(ServerLine(offline: true, queuedEvents: 12))).last ?? ""
    #expect(both.hasSuffix("offline · 12 events queued "), "\(both)")
    let queued = rows(feed(ServerLine(queuedEvents: 1))).last ?? ""
    #expect(queued.hasSuffix("1 event queued ") && !queued.contains("offline"), "\(queued)")
    #expect(!(rows(feed(ServerLine(queuedEvents: 0))).last ?? "").contains("queued"))
  }

  /// A status other than the default shows, sanitised and cut, left of the mark.
  @Test func theUsersStatusShowsUnlessItIsTheDefault() {
    let bar = rows(feed(ServerLine(offline: true, userStatus: "premium"))).last ?? ""
    #expect(bar.hasSuffix("premium  offline "), "\(bar)")
    #expect(bar.contains("? help"), "\(bar)")
    #expect(!(rows(feed(ServerLine(userStatus: "active"))).last ?? "").contains("active"))
    let hostile = "\u{1B}[31mgold\u{202E} " + String(repeating: "member ", count: 10)
    let cut = rows(feed(ServerLine(userStatus: hostile))).last ?? ""
    #expect(cut.contains("gold") && cut.contains("? help"), "\(cut)")
    #expect(!cut.contains("\u{1B}") && !cut.contains("\u{202E}"), "\(cut)")
    #expect(DisplayWidth.of(cut) <= 80, "\(cut)")
  }

  /// Offline at 80 columns, the mark takes the room of the hints that can go, never of quit or
  /// help ("s settings q quit" went to fit "offline · 1 queued").
  @Test func quitAndHelpStayBesideTheMark() {
    let bar = rows(feed(ServerLine(offline: true, queuedEvents: 1))).last ?? ""
    #expect(
      bar.contains("q quit  ? help ") && bar.hasSuffix(" offline · 1 event queued "), "\(bar)")
    #expect(bar.hasPrefix(" → TFU  ← TIFB  ↑ CTFO"), "\(bar)")
  }

  /// Where the row is wide enough, the hint bar says what each reaction means;
  /// where it is not, it keeps every key.
  @Test func aWideHintBarSaysWhatEachReactionMeans() {
    let wide = rows(feed(width: 120, ServerLine()), width: 120).last ?? ""
    #expect(
      wide.hasPrefix(" → TFU (liked it)  ← TIFB (not for me)  ↑ CTFO (loved it)  ↓ history"),
      "\(wide)")
    #expect(wide.contains("q quit  ? help"), "\(wide)")
    let narrow = rows(feed(ServerLine())).last ?? ""
    #expect(narrow.hasPrefix(" → TFU  ← TIFB  ↑ CTFO  ↓ history  u undo  s settings"), "\(narrow)")
  }

  @Test func theNoticeIsOneSanitisedLineAboveTheHints() {
    let text = "Server says \u{1B}[31mhello\u{202E} " + String(repeating: "long ", count: 30)
    let screen = rows(feed(ServerLine(notices: [.init(id: "n", text: text)])))
    let line = screen[screen.count - 2]
    #expect(line.contains("Server says") && line.contains("c dismiss"), "\(line)")
    #expect(!line.contains("\u{1B}") && !line.contains("\u{202E}"), "\(line)")
    #expect(DisplayWidth.of(line) <= 80, "\(line)")
  }

  @Test func theHistoryShowsNeither() {
    var state = feed(ServerLine(offline: true, notices: [.init(id: "n", text: "Hello")]))
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 2), total: 2))
    let screen = rows(state)
    #expect(!screen.contains { $0.contains("offline") || $0.contains("Hello") }, "\(screen)")
  }
}
