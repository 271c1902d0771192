import App
import FeedCore
import TestFixtures
import Testing

/// Keys typed ahead: a swipe acts only on a card a frame has shown. One read with the swipe
/// that brought the next card, or before the app's first frame, waits for that card to be
/// drawn, and every key after it waits its turn; one pressed while the placeholder is on screen
/// swipes nothing and says so.
@Suite struct TypeAheadTests {
  let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let second = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let third = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  /// `card` swiped right at position 7; its successor's history row is being written, and no
  /// frame has shown the placeholder yet.
  private var afterASwipe: AppState {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.key(.character("l")))
    _ = state.reduce(.dealt(.loading, position: 0))
    return state
  }

  @Test func swipesReadWithASwipeWaitForEachCardToBeDrawn() {
    var state = afterASwipe
    #expect(state.reduce(.key(.character("l"))) == [])
    #expect(state.reduce(.key(.character("l"))) == [])
    #expect(state.feed == .loading)
    // The frame shows the placeholder: the keys read before it still wait.
    #expect(state.reduce(.drawn) == [])
    #expect(state.typedAhead.count == 2)
    #expect(state.reduce(.wake) == [.takeNext])
    // Dealt, not drawn: nothing is swiped yet.
    #expect(state.reduce(.dealt(.card(second), position: 8)) == [])
    #expect(state.waitsForAFrame)
    #expect(state.reduce(.drawn) == [.swipe(second, .right), .takeNext])
    let shown = ShownCard(prepared: second, position: 8)
    #expect(state.slide == SlideOut(card: shown, direction: .right))
    #expect(state.reduce(.dealt(.card(third), position: 9)) == [])
    #expect(state.reduce(.drawn) == [.swipe(third, .right), .takeNext])
    _ = state.reduce(.dealt(.card(card), position: 10))
    #expect(!state.waitsForAFrame)
    #expect(state.reduce(.drawn) == [])
    #expect(state.feed == .card(ShownCard(prepared: card, position: 10)))
  }

  /// The placeholder is on screen (the feed had no card ready): a swipe swipes nothing, says
  /// so on the hint line, and does not wait for the card that comes next.
  @Test func aSwipeOnThePlaceholderOnScreenSwipesNothingAndSaysSo() {
    var state = AppState(width: 80, height: 24)
    _ = state.reduce(.dealt(.loading, position: 0))
    _ = state.reduce(.drawn)
    #expect(state.reduce(.key(.right)) == [])
    #expect(state.typedAhead.isEmpty)
    #expect(state.message == AppState.nothingToSwipe)
    #expect(state.reduce(.dealt(.card(card), position: 0)) == [])
    #expect(state.reduce(.drawn) == [])
    #expect(state.feed == .card(ShownCard(prepared: card, position: 0)))
    // The card that came is not the one the key was meant for: the line goes with it.
    #expect(state.message == nil)
    #expect(state.reduce(.key(.right)) == [.swipe(card, .right), .takeNext])
  }

  /// After a swipe, once the placeholder has been drawn, a new swipe is refused though keys
  /// read before it still wait.
  @Test func aSwipePressedOnThePlaceholderIsRefusedEvenBehindWaitingKeys() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    _ = state.reduce(.drawn)
    #expect(state.reduce(.key(.left)) == [])
    #expect(state.typedAhead == [.right])
    #expect(state.message == AppState.nothingToSwipe)
  }

  /// Keys typed before the app's first frame (read before it is drawn) wait for the first
  /// card, and act once it has been on screen.
  @Test func aSwipeTypedBeforeTheFirstFrameSwipesTheFirstCardOnceDrawn() {
    var state = AppState(width: 80, height: 24)
    #expect(state.reduce(.key(.left)) == [])
    #expect(state.reduce(.key(.character("q"))) == [])
    _ = state.reduce(.drawn)
    #expect(state.reduce(.dealt(.card(card), position: 0)) == [])
    #expect(state.reduce(.drawn) == [.swipe(card, .left), .takeNext])
    #expect(state.reduce(.dealt(.card(second), position: 1)) == [])
    #expect(state.reduce(.drawn) == [.quit])
  }

  /// A card dealt in the same batch of events as the key (the key read after a wake-up that
  /// brought the card) is swiped only once a frame has shown it.
  @Test func aSwipeOnACardNotYetDrawnWaitsForTheFrame() {
    var state = AppState(width: 80, height: 24)
    _ = state.reduce(.dealt(.card(card), position: 3))
    #expect(state.reduce(.key(.up)) == [])
    #expect(state.typedAhead == [.up])
    #expect(state.reduce(.drawn) == [.swipe(card, .up), .takeNext])
  }

  /// `r` typed ahead asks for a pull, which reports nothing back: the keys after it are still
  /// handled (six `r →` typed at once swiped only once before).
  @Test func keysTypedAfterAPullAreHandled() {
    var state = afterASwipe
    for key in [Key.right, .character("r"), .right, .character("r")] {
      #expect(state.reduce(.key(key)) == [])
    }
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [.swipe(second, .right), .takeNext])
    _ = state.reduce(.dealt(.card(third), position: 9))
    #expect(state.reduce(.drawn) == [.pull, .swipe(third, .right), .takeNext])
    _ = state.reduce(.dealt(.card(card), position: 10))
    #expect(state.reduce(.drawn) == [.pull])
    #expect(state.feed == .card(ShownCard(prepared: card, position: 10)))
  }

  @Test func keysBehindAWaitingSwipeWaitTheirTurn() {
    var state = afterASwipe
    _ = state.reduce(.key(.up))
    #expect(state.reduce(.key(.character("u"))) == [])
    #expect(state.reduce(.key(.character("j"))) == [])
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [.swipe(second, .up), .takeNext])
    _ = state.reduce(.dealt(.card(third), position: 9))
    #expect(state.reduce(.drawn) == [.undo])
    let back = ShownCard(prepared: second, position: 8)
    #expect(state.reduce(.undone(back)) == [])
    #expect(state.feed == .card(back))
    #expect(state.reduce(.drawn) == [.loadHistory(limit: AppState.historyLimit)])
    _ = state.reduce(.historyLoaded([], total: 0))
    _ = state.reduce(.key(.escape))
    _ = state.reduce(.drawn)
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
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [.swipe(second, .right), .takeNext])
    _ = state.reduce(.dealt(.card(third), position: 9))
    #expect(state.reduce(.drawn) == [.quit])
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
    #expect(state.typedAhead.isEmpty)
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [])
    #expect(state.feed == .card(ShownCard(prepared: second, position: 8)))
  }

  @Test func aSwipeWaitingWhenTheTerminalBecomesTooSmallDoesNothing() {
    var state = afterASwipe
    _ = state.reduce(.key(.right))
    _ = state.reduce(.resized(width: 10, height: 4))
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [])
    #expect(state.shownCard?.position == 8)
  }

  @Test func keysAnotherScreenTakesAreNotSwipes() {
    var state = afterASwipe
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    _ = state.reduce(.key(.character("l")))
    #expect(state.mode == .history(HistoryBrowser(entries: Fixtures.history(count: 3))))
    #expect(state.reduce(.key(.escape)) == [.takeNext])
    _ = state.reduce(.dealt(.card(second), position: 8))
    #expect(state.reduce(.drawn) == [])
  }
}
