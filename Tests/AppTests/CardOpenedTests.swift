import App
import CardPreparation
import FeedCore
import TestFixtures
import Testing

/// `CardOpened` is recorded whenever a card's whole view opens: from the history, and from
/// the feed (Enter, or a click on the card).
@Suite struct CardOpenedTests {
  let long = Fixtures.prepared(
    Card(
      id: "long", type: "fact", title: "A long card",
      body: Array(repeating: "Words enough to run past the card's box.", count: 40)
        .joined(separator: " ")),
    width: 80, height: 24)

  private static let opened = AnalyticsEvent(
    "CardOpened", ["card_id": .string("long"), "card_type": .string("fact")])

  /// A machine with analytics on, showing `long` (drawn), its start's writes taken.
  private func showingLong() -> AppMachine {
    var machine = AppMachine(
      screen: AppState(width: 80, height: 24),
      session: Session(window: UndoWindow(configuration: UndoConfiguration())), analytics: true,
      now: 0)
    _ = machine.start(now: 1)
    _ = machine.reduce(.fed(.card(long)), now: 1)
    _ = machine.reduce(.frameDrawn, now: 1)
    _ = machine.reduce(.written([.committed(1, indices: []), .committed(2, indices: [0])]), now: 2)
    _ = machine.reduce(.app(.wake), now: 2)
    _ = machine.reduce(.frameDrawn, now: 2)
    return machine
  }

  private func events(_ effects: [AppMachine.Effect]) -> [AnalyticsEvent] {
    effects.flatMap { effect -> [AnalyticsEvent] in
      guard case .write(let write) = effect else { return [] }
      return write.change.events
    }
  }

  @Test func openingTheCardFromTheFeedRecordsCardOpened() {
    var machine = showingLong()
    #expect(machine.screen.shownCard?.hasMore == true)
    _ = machine.reduce(.app(.key(.enter)), now: 3)
    #expect(machine.screen.mode == .fullCard(FullCardView(card: long, origin: .feed)))
    #expect(events(machine.reduce(.frameDrawn, now: 3)) == [Self.opened])
    // Scrolling the whole view is no new opening.
    _ = machine.reduce(.app(.key(.down)), now: 4)
    #expect(events(machine.reduce(.frameDrawn, now: 4)) == [])
  }

  @Test func openingACardFromTheHistoryRecordsCardOpenedOnce() {
    var machine = showingLong()
    _ = machine.reduce(.app(.historyLoaded(Fixtures.history(count: 1), total: 1)), now: 3)
    _ = machine.reduce(.app(.cardOpened(long)), now: 3)
    #expect(events(machine.reduce(.frameDrawn, now: 3)) == [Self.opened])
  }
}
