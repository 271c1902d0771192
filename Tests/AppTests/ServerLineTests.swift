import App
import FeedCore
import TestFixtures
import Testing

/// The server in the app: `r` asks for a pull and nothing waits for it; a pull's end
/// brings the offline mark and the newest notification, which `c` dismisses.
@Suite struct ServerLineTests {
  private var feed: AppState {
    Fixtures.showing(Card(id: "c1", type: "fact", title: "One", body: "Body."))
  }

  @Test func rAsksForAPullAndTheCardStays() {
    var state = feed
    let before = state.feed
    #expect(state.reduce(.key(.character("r"))) == [.pull])
    #expect(state.feed == before)
  }

  @Test func aPullsEndShowsItsMarkAndNoticeUntilDismissed() {
    var state = feed
    let notice = ServerLine.Notice(id: "n7", text: "New cards")
    _ = state.reduce(.serverChanged(ServerLine(offline: true, notices: [notice])))
    #expect(state.server.offline)
    #expect(state.reduce(.key(.character("c"))) == [.dismissNotice(id: "n7")])
    #expect(state.server.notice == nil)
    #expect(state.reduce(.key(.character("c"))) == [], "nothing left to dismiss")
    _ = state.reduce(.serverChanged(ServerLine()))
    #expect(!state.server.offline)
  }

  @Test func pullAndDismissCanBeRebound() throws {
    let keys = try KeyBindings(configured: [("pull", ["g"], 1), ("dismiss", ["z"], 2)])
    var state = AppState(width: 80, height: 24, keys: keys)
    _ = state.reduce(.serverChanged(ServerLine(notices: [.init(id: "a", text: "t")])))
    #expect(state.reduce(.key(.character("g"))) == [.pull])
    #expect(state.reduce(.key(.character("z"))) == [.dismissNotice(id: "a")])
  }
}
