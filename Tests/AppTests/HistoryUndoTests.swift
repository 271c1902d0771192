import App
import CardPreparation
import CardText
import FeedCore
import TestFixtures
import Testing

/// In the history view, `u` on a card undoes every swipe back to it as that many `u` on the
/// feed would, or says why not; `b` deals a card next without touching its history row.
@Suite struct HistoryUndoTests {
  let a = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let b = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let c = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  private func writes(_ machine: inout AppMachine, now: Double) -> [Session.Write] {
    machine.reduce(.frameDrawn, now: now).compactMap { effect in
      guard case .write(let write) = effect else { return nil }
      return write
    }
  }

  /// A machine that showed a (row 41), b (42) and c (43), swiping a and b right; c is on
  /// screen and every write is committed.
  private func swipedTwice(limit: Int = 5) -> AppMachine {
    let window = UndoWindow(configuration: UndoConfiguration(limit: limit))
    var machine = AppMachine(
      screen: AppState(width: 80, height: 24), session: Session(window: window, nextIndex: 41),
      analytics: true, hooks: false, now: 0)
    _ = machine.start(now: 1)
    var sequence: UInt64 = 0
    for (card, row) in [(a, 41), (b, 42), (c, 43)] {
      if row > 41 { _ = machine.reduce(.app(.key(.right)), now: Double(row)) }
      _ = machine.reduce(.fed(.card(card)), now: Double(row))
      let reports = writes(&machine, now: Double(row)).map { write -> WriterReport in
        sequence = write.sequence
        return .committed(write.sequence, indices: write.change.shown.isEmpty ? [] : [row])
      }
      _ = machine.reduce(.written(reports), now: Double(row))
      _ = machine.reduce(.app(.wake), now: Double(row))
    }
    #expect(sequence > 0)
    #expect(machine.screen.feed == .card(ShownCard(prepared: c, position: 43)))
    return machine
  }

  /// Opens the history of the three cards and selects row `row`.
  private func inHistory(_ machine: inout AppMachine, selecting row: Int) {
    _ = machine.reduce(.app(.key(.down)), now: 50)
    let entries = [(c, 43, nil), (b, 42, Reaction.tfu), (a, 41, Reaction.tfu)].map {
      HistoryEntry(
        index: $0.1, cardID: $0.0.card.id, type: $0.0.card.type, title: $0.0.card.title,
        shownAt: Double($0.1), reaction: $0.2)
    }
    _ = machine.reduce(.app(.historyLoaded(entries, total: 3)), now: 50)
    for _ in 0..<(43 - row) { _ = machine.reduce(.app(.key(.character("j"))), now: 50) }
  }

  @Test func uOnAHistoryCardIsThatManyUndos() {
    var fromHistory = swipedTwice()
    inHistory(&fromHistory, selecting: 41)
    #expect(fromHistory.reduce(.app(.key(.character("u"))), now: 60) == [.findCard(id: b.card.id, for: .undo)])
    #expect(fromHistory.reduce(.found(b, for: .undo), now: 60) == [.findCard(id: a.card.id, for: .undo)])
    #expect(fromHistory.reduce(.found(a, for: .undo), now: 60) == [])
    #expect(fromHistory.screen.mode == .feed)
    #expect(fromHistory.screen.feed == .card(ShownCard(prepared: a, position: 41)))
    #expect(fromHistory.session.window.tombstones.isEmpty)

    var pressed = swipedTwice()
    _ = pressed.reduce(.app(.key(.down)), now: 50)
    _ = pressed.reduce(.app(.key(.escape)), now: 50)
    _ = pressed.reduce(.app(.key(.character("u"))), now: 60)
    _ = pressed.reduce(.found(b, for: .undo), now: 60)
    _ = pressed.reduce(.app(.key(.character("u"))), now: 60)
    _ = pressed.reduce(.found(a, for: .undo), now: 60)
    #expect(pressed.screen.feed == fromHistory.screen.feed)
    // The same rows restored, the same Undo events, the same cards to come back, in order.
    #expect(writes(&fromHistory, now: 61) == writes(&pressed, now: 61))
  }

  /// Back to a card that is not the oldest the window holds: only the swipes after it are
  /// undone, the older one stays in the window, as one `u` on the feed does.
  @Test func uOnACardInsideTheWindowUndoesOnlyBackToIt() {
    var fromHistory = swipedTwice()
    inHistory(&fromHistory, selecting: 42)
    #expect(fromHistory.reduce(.app(.key(.character("u"))), now: 60) == [.findCard(id: b.card.id, for: .undo)])
    #expect(fromHistory.reduce(.found(b, for: .undo), now: 60) == [])
    #expect(fromHistory.screen.mode == .feed)
    #expect(fromHistory.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    #expect(fromHistory.session.window.tombstones.count == 1)

    var pressed = swipedTwice()
    _ = pressed.reduce(.app(.key(.down)), now: 50)
    _ = pressed.reduce(.app(.key(.escape)), now: 50)
    _ = pressed.reduce(.app(.key(.character("u"))), now: 60)
    _ = pressed.reduce(.found(b, for: .undo), now: 60)
    #expect(pressed.screen.feed == fromHistory.screen.feed)
    #expect(pressed.session.window.tombstones.count == fromHistory.session.window.tombstones.count)
    #expect(writes(&fromHistory, now: 61) == writes(&pressed, now: 61))
  }

  @Test func uOnACardOutsideTheWindowSaysWhyNot() {
    for (limit, row) in [(5, 43), (1, 41)] {
      var machine = swipedTwice(limit: limit)
      inHistory(&machine, selecting: row)
      #expect(machine.reduce(.app(.key(.character("u"))), now: 60) == [])
      #expect(machine.screen.message == AppMachine.notUndoable(limit: limit))
      #expect(machine.screen.feed == .card(ShownCard(prepared: c, position: 43)))
    }
  }

  @Test func bDealsTheCardNextAndLeavesItsRowAlone() {
    var machine = swipedTwice()
    inHistory(&machine, selecting: 41)
    #expect(machine.reduce(.app(.key(.character("b"))), now: 60) == [.findCard(id: a.card.id, for: .bringBack)])
    #expect(machine.reduce(.found(a, for: .bringBack), now: 60) == [])
    #expect(machine.screen.message == "“\(a.card.title!)” comes next")
    _ = machine.reduce(.app(.key(.escape)), now: 61)
    #expect(machine.screen.feed == .card(ShownCard(prepared: c, position: 43)))
    // The swipe takes no card from the feed: a comes, with a new history row.
    #expect(!machine.reduce(.app(.key(.right)), now: 62).contains(.takeFromFeed))
    let shown = writes(&machine, now: 62).flatMap(\.change.shown)
    #expect(shown.map(\.cardID) == [a.card.id])
    #expect(machine.session.window.tombstones.map(\.historyIndex) == [41, 42, 43])
  }
}
