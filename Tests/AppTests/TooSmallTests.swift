import App
import FeedCore
import TestFixtures
import Testing

/// Under the minimum size no card or list is visible: only quit, help and resize act.
@Suite struct TooSmallTests {
  /// Every key but the ones that act under the minimum size (`q`, `?`, Ctrl-C).
  static let ignoredKeys: [Key] = [
    .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .space, .tab, .escape,
    .backspace, .character("h"), .character("j"), .character("k"), .character("l"),
    .character("u"), .character("s"), .character("y"), .character("n"), .character("Y"),
    .character("x"), .control("z"), .unknown,
  ]

  /// Every screen, over a card on the feed.
  static let modes: [AppMode] = {
    let card = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
    let settings = AppMode.settings(
      SettingsPanel(statuses: Fixtures.statuses(), problems: []))
    let yes = AppEffect.setEnabled(type: "fact", enabled: false, confirmed: true)
    return [
      .feed, .help(origin: .feed), .history(HistoryBrowser(entries: Fixtures.history(count: 3))),
      .fullCard(FullCardView(card: card, origin: .feed)), settings,
      .confirm(Confirmation(question: "Go on?", onYes: yes, origin: settings)),
    ]
  }()

  /// A card on the feed at 10x4 with a message, and `mode` over it.
  static func tooSmall(_ mode: AppMode, width: Int = 10, height: Int = 4) -> AppState {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    state.mode = mode
    state.message = "Nothing to undo"
    return state
  }

  @Test(arguments: ignoredKeys, modes)
  func aKeyDoesNothingWhileTheTerminalIsTooSmall(key: Key, mode: AppMode) {
    var state = Self.tooSmall(mode)
    let before = state
    #expect(state.reduce(.key(key)) == [])
    #expect(state == before)
  }

  @Test(arguments: [(19, 24), (80, 5), (1, 1)])
  func aSwipeJustUnderTheMinimumDoesNothing(width: Int, height: Int) {
    var state = Self.tooSmall(.feed, width: width, height: height)
    let before = state
    #expect(state.reduce(.key(.right)) == [])
    #expect(state == before)
  }

  @Test func atTheMinimumSizeKeysAct() throws {
    var state = Self.tooSmall(.feed, width: Geometry.minimumWidth, height: Geometry.minimumHeight)
    let card = try #require(state.shownCard).prepared
    #expect(state.reduce(.key(.right)) == [.swipe(card, .right), .takeNext])
  }

  @Test(arguments: modes) func ctrlCQuitsAtAnySize(mode: AppMode) {
    var state = Self.tooSmall(mode)
    #expect(state.reduce(.key(.control("c"))) == [.quit])
  }

  @Test func qQuitsAndQuestionMarkOpensAndClosesHelp() {
    var state = Self.tooSmall(.feed)
    #expect(state.reduce(.key(.character("q"))) == [.quit])
    #expect(state.reduce(.key(.character("?"))) == [])
    #expect(state.mode == .help(origin: .feed))
    #expect(state.message == nil)
    #expect(state.reduce(.key(.character("?"))) == [])
    #expect(state.mode == .feed)
  }

  @Test func qLeavesTheScreenItIsOn() {
    var state = Self.tooSmall(.history(HistoryBrowser(entries: Fixtures.history(count: 3))))
    #expect(state.reduce(.key(.character("q"))) == [])
    #expect(state.mode == .feed)
  }

  @Test func afterAResizeTheSameKeyActs() throws {
    var state = Self.tooSmall(.feed)
    #expect(state.reduce(.key(.right)) == [])
    _ = state.reduce(.resized(width: 80, height: 24))
    // The card shows once a frame has drawn it at the new size.
    _ = state.reduce(.drawn)
    let card = try #require(state.shownCard).prepared
    #expect(state.reduce(.key(.right)) == [.swipe(card, .right), .takeNext])
  }
}
