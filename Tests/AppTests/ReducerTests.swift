import App
import CardText
import FeedCore
import TestFixtures
import Testing

/// State in, action, whole state and effects out.
@Suite struct ReducerTests {
  let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let next = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)

  private var showing: AppState { Fixtures.showing(Fixtures.asciiCard) }

  @Test func startAsksForTypesTheTextAreaAndACard() {
    let state = AppState(width: 80, height: 24)
    #expect(
      state.start() == [.loadTypes, .resizeTextArea(TextArea(width: 72, height: 18)), .takeNext])
  }

  @Test func aDealtCardIsShownWithItsPosition() {
    var state = AppState(width: 80, height: 24)
    #expect(state.reduce(.dealt(.card(card), position: 3)) == [])
    var expected = AppState(width: 80, height: 24)
    expected.feed = .card(ShownCard(prepared: card, position: 3))
    #expect(state == expected)
  }

  @Test func aSwipeSlidesTheCardOutAndTakesTheNext() {
    var state = showing
    let effects = state.reduce(.key(.right))
    #expect(effects == [.swipe(card, .right), .takeNext])
    var expected = showing
    expected.feed = .loading
    expected.slide = SlideOut(card: ShownCard(prepared: card, position: 7), direction: .right)
    #expect(state == expected)
  }

  @Test func withoutMotionASwipeTakesTheNextWithNoSlideOut() {
    var state = Fixtures.showing(Fixtures.asciiCard, motion: .none)
    #expect(state.reduce(.key(.right)) == [.swipe(card, .right), .takeNext])
    #expect(state.slide == nil && !state.isAnimating)
    #expect(state.reduce(.dealt(.card(next), position: 8)) == [])
    #expect(state.feed == .card(ShownCard(prepared: next, position: 8)))
  }

  @Test(arguments: [
    (Key.left, SwipeDirection.left), (.character("h"), .left), (.character("l"), .right),
    (.up, .up), (.character("k"), .up),
  ])
  func arrowsAndTheirViMirrorsSwipe(key: Key, direction: SwipeDirection) {
    var state = showing
    #expect(state.reduce(.key(key)) == [.swipe(card, direction), .takeNext])
    #expect(state.slide?.direction == direction)
  }

  /// Before the first frame: the key was typed before the placeholder showed.
  @Test func aSwipeOnThePlaceholderWaitsForTheCard() {
    var state = AppState(width: 80, height: 24)
    #expect(state.reduce(.key(.right)) == [])
    var expected = AppState(width: 80, height: 24)
    expected.typedAhead = [.right]
    #expect(state == expected)
  }

  @Test func theSlideOutPlaysItsFramesThenEnds() {
    var state = showing
    _ = state.reduce(.key(.left))
    for frame in 1..<SlideOut.frames {
      #expect(state.reduce(.frame) == [])
      #expect(state.slide?.frame == frame)
    }
    _ = state.reduce(.frame)
    #expect(state.slide == nil)
    #expect(!state.isAnimating)
  }

  @Test func aKeyDuringTheSlideOutFinishesItAndActs() {
    var state = showing
    _ = state.reduce(.key(.right))
    _ = state.reduce(.dealt(.card(next), position: 8))
    _ = state.reduce(.drawn)
    #expect(state.reduce(.key(.up)) == [.swipe(next, .up), .takeNext])
    #expect(state.slide?.card.position == 8)
  }

  @Test func aWakeOnThePlaceholderTakesTheReadyCard() {
    var state = AppState(width: 80, height: 24)
    #expect(state.reduce(.wake) == [.takeNext])
    _ = state.reduce(.dealt(.card(card), position: 0))
    #expect(state.reduce(.wake) == [])
    #expect(state.feed == .card(ShownCard(prepared: card, position: 0)))
  }

  @Test func aWakeWhileAnotherScreenIsOpenWaitsForTheReturn() {
    var state = AppState(width: 80, height: 24)
    _ = state.reduce(.historyLoaded([], total: 0))
    #expect(state.reduce(.wake) == [])
    #expect(state.reduce(.key(.escape)) == [.takeNext])
    #expect(state.mode == .feed)
  }

  @Test func historyOpensNewestFirstAndReturnsToTheSameCard() {
    var state = showing
    #expect(state.reduce(.key(.down)) == [.loadHistory(limit: AppState.historyLimit)])
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    guard case .history(let browser) = state.mode else {
      Issue.record("not in history: \(state.mode)")
      return
    }
    #expect(browser.entries.map(\.index) == [2, 1, 0])
    _ = state.reduce(.key(.down))
    #expect(state.reduce(.key(.enter)) == [.openCard(id: Fixtures.cjkCard.id)])
    _ = state.reduce(.cardOpened(next))
    #expect(state.reduce(.key(.escape)) == [])
    #expect(state.reduce(.key(.character("q"))) == [])
    #expect(state == showing)
  }

  @Test func historyMovesByRowsAndPagesWithinItsEntries() {
    var state = AppState(width: 80, height: 12)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 30), total: 30))
    let rows = Geometry.historyRows(height: 12)
    _ = state.reduce(.key(.pageDown))
    _ = state.reduce(.key(.pageDown))
    #expect(state.mode == .history(browser(selection: 2 * rows, top: 2 * rows - rows + 1)))
    _ = state.reduce(.key(.end))
    #expect(state.mode == .history(browser(selection: 29, top: 30 - rows)))
    _ = state.reduce(.key(.pageUp))
    _ = state.reduce(.key(.up))
    #expect(state.mode == .history(browser(selection: 29 - rows - 1, top: 29 - rows - 1)))
  }

  private func browser(selection: Int, top: Int) -> HistoryBrowser {
    HistoryBrowser(
      entries: Fixtures.history(count: 30), viewport: ListViewport(selection: selection, top: top))
  }

  @Test func aVanishedHistoryCardSaysSo() {
    var state = showing
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 2), total: 2))
    _ = state.reduce(.cardOpened(nil))
    #expect(state.message == "That card is no longer available")
    #expect(state.mode == .history(HistoryBrowser(entries: Fixtures.history(count: 2))))
  }

  @Test func enterOpensOnlyACardWithMoreToShow() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 80, height: 24)
    _ = state.reduce(.key(.enter))
    #expect(state.mode == .feed)
    var truncated = Fixtures.showing(Fixtures.asciiCard, width: 20, height: 8)
    _ = truncated.reduce(.key(.space))
    guard case .fullCard(let view) = truncated.mode else {
      Issue.record("not the full card: \(truncated.mode)")
      return
    }
    #expect(view.origin == .feed)
    var joke = Fixtures.showing(Fixtures.emojiCard)
    _ = joke.reduce(.key(.enter))
    #expect(joke.mode == .fullCard(FullCardView(card: joke.shownCard!.prepared, origin: .feed)))
  }

  @Test func theFullCardScrollsWithinItsText() {
    var state = Fixtures.showing(Fixtures.cjkCard, width: 20, height: 6)
    _ = state.reduce(.key(.enter))
    _ = state.reduce(.key(.end))
    guard case .fullCard(let view) = state.mode else {
      Issue.record("not the full card")
      return
    }
    #expect(view.scroll > 0)
    _ = state.reduce(.key(.down))
    #expect(state.mode == .fullCard(view))
    _ = state.reduce(.key(.home))
    #expect(state.mode == .fullCard(FullCardView(card: view.card, scroll: 0, origin: .feed)))
  }

  /// The whole view of the feed's card takes the swipes that do not scroll (they
  /// did nothing until Esc); a card opened from the history is not the feed's to swipe.
  @Test(arguments: [(Key.right, SwipeDirection.right), (.left, .left), (.character("h"), .left)])
  func theWholeCardSwipesTheFeedsCard(key: Key, direction: SwipeDirection) {
    var state = Fixtures.showing(Fixtures.cjkCard, width: 20, height: 6)
    _ = state.reduce(.key(.enter))
    let shown = state.shownCard!
    #expect(state.reduce(.key(key)) == [.swipe(shown.prepared, direction), .takeNext])
    #expect(state.mode == .feed && state.slide?.direction == direction)
    var fromHistory = showing
    fromHistory.mode = .fullCard(
      FullCardView(card: next, origin: .history(HistoryBrowser(entries: []))))
    #expect(fromHistory.reduce(.key(key)) == [])
  }

  /// A deck edited while the settings are open: the screen shows the new counts
  /// (it kept the count it opened with).
  @Test func anOpenSettingsScreenFollowsALiveChange() {
    var state = showing
    _ = state.reduce(.settingsLoaded(Fixtures.statuses(), problems: []))
    var statuses = Fixtures.statuses()
    statuses[0].cards = 121
    _ = state.reduce(.liveChanged(LiveUpdate(statuses: statuses)))
    #expect(state.mode == .settings(SettingsPanel(statuses: statuses, problems: [])))
  }

  @Test func undoWithNothingToUndoSaysSoUntilTheNextKey() {
    var state = showing
    #expect(state.reduce(.key(.character("u"))) == [.undo])
    #expect(state.reduce(.key(.backspace)) == [.undo])
    _ = state.reduce(.undone(nil))
    #expect(state.message == "Nothing to undo")
    _ = state.reduce(.key(.escape))
    #expect(state == showing)
  }

  /// The swipe's card is gone from its source; the card on screen stays.
  @Test func anUndoRefusedSaysWhyAndKeepsTheCardOnScreen() {
    var state = showing
    #expect(state.reduce(.undoRefused("That card was removed.")) == [])
    #expect(state.message == "That card was removed.")
    #expect(state.feed == showing.feed)
  }

  /// A live change to the card on screen redraws it from its new data (laid out for
  /// the screen again); a change to another card, or a source's message, leaves it as it is.
  @Test func aLiveChangeRedrawsTheCardOnScreenAndNoOther() {
    var state = showing
    var edited = Fixtures.asciiCard
    edited.body = "An edited body."
    let changed = Fixtures.prepared(edited, width: 80, height: 24)
    #expect(state.reduce(.liveChanged(LiveUpdate(updated: [next]))) == [])
    #expect(state.feed == showing.feed)
    #expect(state.reduce(.liveChanged(LiveUpdate(updated: [changed], message: "stdin: all 3 cards read"))) == [])
    #expect(state.feed == .card(ShownCard(prepared: changed, position: 7)))
    #expect(state.message == "stdin: all 3 cards read")
  }

  /// Cards that arrive while the placeholder shows are taken at once.
  @Test func aLiveChangeWhileNothingShowsTakesACard() {
    var state = AppState(width: 80, height: 24)
    _ = state.reduce(.dealt(.unavailable("Nothing to show"), position: 0))
    #expect(state.reduce(.liveChanged(LiveUpdate(statuses: Fixtures.statuses()))) == [.takeNext])
  }

  @Test func undoBringsTheCardBack() {
    var state = showing
    _ = state.reduce(.key(.left))
    _ = state.reduce(.dealt(.card(next), position: 8))
    _ = state.reduce(.undone(ShownCard(prepared: card, position: 7)))
    _ = state.reduce(.drawn)
    #expect(state == showing)
  }

  @Test func settingsToggleATypeAndShowRefusals() {
    var state = showing
    #expect(state.reduce(.key(.character("s"))) == [.loadSettings])
    _ = state.reduce(.settingsLoaded(Fixtures.statuses(), problems: ["bad line"]))
    #expect(
      state.reduce(.key(.space)) == [.setEnabled(type: "fact", enabled: false, confirmed: false)])
    _ = state.reduce(.settingChanged(.refused("At least one type must stay enabled")))
    #expect(state.message == "At least one type must stay enabled")
    _ = state.reduce(.settingChanged(.applied(Fixtures.statuses(factEnabled: false))))
    #expect(
      state.mode
        == .settings(
          SettingsPanel(statuses: Fixtures.statuses(factEnabled: false), problems: ["bad line"])))
    #expect(state.reduce(.key(.escape)) == [])
    #expect(state.mode == .feed)
  }

  @Test func aToggleThatNeedsAYesAsksFirst() {
    var state = showing
    _ = state.reduce(.settingsLoaded(Fixtures.statuses(factEnabled: false), problems: []))
    let settings = state.mode
    _ = state.reduce(.settingChanged(.needsConfirmation("Clear the undo history?")))
    let yes = AppEffect.setEnabled(type: "fact", enabled: true, confirmed: true)
    #expect(
      state.mode
        == .confirm(Confirmation(question: "Clear the undo history?", onYes: yes, origin: settings))
    )
    var declined = state
    #expect(declined.reduce(.key(.character("n"))) == [])
    #expect(declined.mode == settings)
    #expect(state.reduce(.key(.character("y"))) == [yes])
    #expect(state.mode == settings)
  }

  @Test func aResizeLaysTheShownCardOutAgainAndTellsTheFeed() {
    var state = showing
    #expect(
      state.reduce(.resized(width: 40, height: 12)) == [
        .resizeTextArea(TextArea(width: 34, height: 8))
      ])
    let area = Geometry.textArea(width: 40, height: 12)
    let expected = CardLayout.layout(
      title: Fixtures.asciiCard.title, body: Fixtures.asciiCard.body, width: area.width,
      height: area.height)
    #expect(state.shownCard?.prepared.layout == expected)
    #expect(
      state.reduce(.resized(width: 41, height: 12)) == [
        .resizeTextArea(TextArea(width: 35, height: 8))
      ])
    #expect(
      state.reduce(.resized(width: 200, height: 60)) == [
        .resizeTextArea(TextArea(width: 72, height: 18))
      ])
    #expect(state.reduce(.resized(width: 199, height: 59)) == [])
  }

  @Test func aCardLaidOutForAnOldSizeIsFittedWhenDealt() {
    var state = AppState(width: 30, height: 10)
    _ = state.reduce(.dealt(.card(card), position: 0))
    let area = Geometry.textArea(width: 30, height: 10)
    #expect(state.shownCard!.prepared.layout.lines.allSatisfy { DisplayWidth.of($0) <= area.width })
  }

  @Test func helpOpensAndCloses() {
    var state = showing
    _ = state.reduce(.key(.character("?")))
    #expect(state.mode == .help(origin: .feed))
    _ = state.reduce(.key(.character("x")))
    #expect(state.mode == .help(origin: .feed))
    _ = state.reduce(.key(.escape))
    #expect(state == showing)
  }

  @Test func quitFromTheFeedCtrlCAnywhereAndOnSignals() {
    var state = showing
    #expect(state.reduce(.key(.character("q"))) == [.quit])
    _ = state.reduce(.historyLoaded([], total: 0))
    #expect(state.reduce(.key(.control("c"))) == [.quit])
    #expect(state.reduce(.terminate) == [.quit])
  }

  @Test func typesAreLearnedForLabels() {
    var state = AppState(width: 80, height: 24)
    _ = state.reduce(.typesLoaded(Fixtures.statuses()))
    #expect(state.types == Fixtures.types)
  }
}

extension AppState {
  /// The card on the feed, if any.
  var shownCard: ShownCard? {
    if case .card(let card) = feed { return card }
    return nil
  }
}

/// The help screen scrolls with the list keys, within its key list, and stays there on resize.
@Suite struct HelpScrollReducerTests {
  @Test func theListKeysScrollTheHelpWithinItsLines() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
    _ = state.reduce(.key(.character("?")))
    let last = HelpText.lineCount - Geometry.helpRows(height: 12)
    #expect(state.reduce(.key(.down)) == [])
    #expect(state.mode == .help(origin: .feed, scroll: 1))
    _ = state.reduce(.key(.end))
    #expect(state.mode == .help(origin: .feed, scroll: last))
    _ = state.reduce(.key(.character("j")))
    #expect(state.mode == .help(origin: .feed, scroll: last))
    _ = state.reduce(.resized(width: 80, height: 24))
    #expect(state.mode == .help(origin: .feed, scroll: 0))
    _ = state.reduce(.key(.escape))
    #expect(state.mode == .feed)
  }
}
