import App
import FeedCore
import TestFixtures
import Testing

/// feed-logic.md's sentences about the UI side of the feed, at the reducer: the app never
/// waits for a preparation, and the placeholder gives way to the first ready card.
@Suite struct FeedLogicUITests {
  let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)

  /// "Card preparation should be non-blocking and should not block the main thread or UI":
  /// while no card is ready (the placeholder), every key still acts at once: help opens, the
  /// history and the settings are asked for, q quits; nothing waits on the feed.
  @Test func whileNoCardIsReadyEveryKeyStillActs() {
    let waiting = AppState(width: 80, height: 24)
    #expect(waiting.feed == .loading)

    var help = waiting
    #expect(help.reduce(.key(.character("?"))) == [])
    #expect(help.mode == .help(origin: .feed))

    var history = waiting
    #expect(history.reduce(.key(.down)) == [.loadHistory(limit: AppState.historyLimit)])

    var settings = waiting
    #expect(settings.reduce(.key(.character("s"))) == [.loadSettings])

    var quit = waiting
    #expect(quit.reduce(.key(.character("q"))) == [.quit])
  }

  /// "If the user swipes so fast that the ready queue is empty, show a loading message on a
  /// blank card and update it with the next card that enters the ready queue as soon as it is
  /// ready": a swipe whose next card is not ready leaves the placeholder; the feed's wake-up
  /// takes the card, with no key pressed, and it replaces the placeholder.
  @Test func aSwipeWithNothingReadyShowsThePlaceholderUntilTheWakeBringsTheCard() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    #expect(state.reduce(.key(.right)).contains(.takeNext))
    _ = state.reduce(.dealt(.loading, position: 0))
    #expect(state.feed == .loading)
    #expect(state.reduce(.wake) == [.takeNext])
    _ = state.reduce(.dealt(.card(card), position: 9))
    #expect(state.feed == .card(ShownCard(prepared: card, position: 9)))
  }
}
