import App
import FeedCore
import TestFixtures
import Testing

/// Keys typed ahead: a swipe that comes while the placeholder stands for the next card waits
/// for that card, and every key after it waits its turn.
@Suite struct TypeAheadTests {
  let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let second = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let third = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  /// `card` swiped right at position 7; its successor's history row is being written.
  private var afterASwipe: AppState {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.key(.character("l")))
    _ = state.reduce(.dealt(.loading, position: 0))
    return state
  }

  @Test func swipesTypedWhileTheNextCardIsCommittedSwipeItAndTheOneAfter() {
    var state = afterASwipe
    #expect(state.reduce(.key(.character("l"))) == [])
    #expect(state.reduce(.key(.character("l"))) == [])
    #expect(state.feed == .loading)
    #expect(state.reduce(.wake) == [.takeNext])
    #expect(
      state.reduce(.dealt(.card(second), position: 8)) == [.swipe(second, .right), .takeNext])
    let shown = ShownCard(prepared: second, position: 8)
    #expect(state.slide == SlideOut(card: shown, direction: .right))
    #expect(state.reduce(.dealt(.loading, position: 0)) == [])
    #expect(state.reduce(.dealt(.card(third), position: 9)) == [.swipe(third, .right), .takeNext])
    _ = state.reduce(.dealt(.card(card), position: 10))
    #expect(state.feed == .card(ShownCard(prepared: card, position: 10)))
  }

  /// `r` typed ahead asks for a pull, which reports nothing back: the keys after it are still
  /// handled (six `r →` typed at once swiped only once before).
  @Test func keysTypedAfterAPullAreHandled() {
    var state = afterASwipe
    for key in [Key.right, .character("r"), .right, .character("r")] {
      #expect(state.reduce(.key(key)) == [])
    }
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [.swipe(second, .right), .takeNext])
    #expect(
      state.reduce(.dealt(.card(third), position: 9)) == [.pull, .swipe(third, .right), .takeNext])
    #expect(state.reduce(.dealt(.card(card), position: 10)) == [.pull])
    #expect(state.feed == .card(ShownCard(prepared: card, position: 10)))
  }

  @Test func aSwipeOnThePlaceholderAtLaunchSwipesTheFirstCard() {
    var state = AppState(width: 80, height: 24)
    #expect(state.reduce(.key(.left)) == [])
    #expect(state.reduce(.dealt(.card(card), position: 0)) == [.swipe(card, .left), .takeNext])
  }

  @Test func keysBehindAWaitingSwipeWaitTheirTurn() {
    var state = afterASwipe
    _ = state.reduce(.key(.up))
    #expect(state.reduce(.key(.character("u"))) == [])
    #expect(state.reduce(.key(.character("j"))) == [])
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [.swipe(second, .up), .takeNext])
    #expect(state.reduce(.dealt(.card(third), position: 9)) == [.undo])
    let back = ShownCard(prepared: second, position: 8)
    #expect(state.reduce(.undone(back)) == [.loadHistory(limit: AppState.historyLimit)])
    #expect(state.feed == .card(back))
    #expect(state.reduce(.key(.right)) == [.swipe(second, .right), .takeNext])
  }

  @Test func otherKeysOnThePlaceholderActAtOnce() {
    var state = afterASwipe
    #expect(state.reduce(.key(.character("s"))) == [.loadSettings])
    var help = afterASwipe
    _ = help.reduce(.key(.character("?")))
    #expect(help.mode == .help(origin: .feed))
    var quit = afterASwipe
    #expect(quit.reduce(.key(.character("q"))) == [.quit])
  }

  @Test func qWaitsBehindATypedAheadSwipe() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    #expect(state.reduce(.key(.character("q"))) == [])
    #expect(
      state.reduce(.dealt(.card(second), position: 8)) == [.swipe(second, .right), .takeNext])
    #expect(state.reduce(.dealt(.card(third), position: 9)) == [.quit])
  }

  @Test func whileSavingFailsQQuitsAtOnce() {
    var state = afterASwipe
    _ = state.reduce(.saveProblem("disk full"))
    _ = state.reduce(.key(.right))
    #expect(state.reduce(.key(.character("q"))) == [.quit])
  }

  @Test func ctrlCQuitsAtOnce() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    #expect(state.reduce(.key(.control("c"))) == [.quit])
  }

  @Test func swipesWaitingWhenNoCardCanComeAreSpent() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    _ = state.reduce(.dealt(.unavailable("No cards"), position: 0))
    #expect(state.feed == .unavailable("No cards"))
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [])
    #expect(state.feed == .card(ShownCard(prepared: second, position: 8)))
  }

  @Test func aSwipeWaitingWhenTheTerminalBecomesTooSmallDoesNothing() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    _ = state.reduce(.resized(width: 10, height: 4))
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [])
    #expect(state.shownCard?.position == 8)
  }

  @Test func keysAnotherScreenTakesAreNotSwipes() {
    var state = afterASwipe
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    _ = state.reduce(.key(.character("l")))
    #expect(state.mode == .history(HistoryBrowser(entries: Fixtures.history(count: 3))))
    #expect(state.reduce(.key(.escape)) == [.takeNext])
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [])
  }
}
