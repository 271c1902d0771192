import App
import CardPreparation
import FeedCore
import TestFixtures
import Testing

/// A swipe pressed while the placeholder is on screen reacts to no card: nothing is recorded,
/// the hint line says so, and the card that comes next stays until it is swiped itself.
@Suite struct PlaceholderKeyTests {
  let a = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)

  @Test func aSwipeOnThePlaceholderOnScreenRecordsNothing() {
    var machine = AppMachine(
      screen: AppState(width: 80, height: 24),
      session: Session(window: UndoWindow(configuration: UndoConfiguration())), now: 0)
    _ = machine.start(now: 1)
    // The feed has no card ready: the placeholder is drawn.
    _ = machine.reduce(.fed(.loading), now: 1)
    _ = machine.reduce(.frameDrawn, now: 1)
    #expect(machine.reduce(.app(.key(.right)), now: 2) == [])
    #expect(machine.screen.message == AppState.nothingToSwipe)
    // The card comes: it is shown once its row is written, and stays on screen.
    #expect(machine.reduce(.app(.wake), now: 3) == [.takeFromFeed])
    _ = machine.reduce(.fed(.card(a)), now: 3)
    let changes = machine.reduce(.frameDrawn, now: 3).compactMap { effect -> StateChange? in
      guard case .write(let write) = effect else { return nil }
      return write.change
    }
    #expect(changes == [StateChange(shown: [ShownRecord(a.card, shownAt: 3)], time: 3)])
    _ = machine.reduce(.written([.committed(1, indices: [0])]), now: 4)
    _ = machine.reduce(.app(.wake), now: 4)
    #expect(machine.reduce(.frameDrawn, now: 4) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 0)))
    #expect(machine.session.window.tombstones.isEmpty)
    #expect(machine.screen.message == nil)
  }
}
