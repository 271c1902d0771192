import App
import CardPreparation
import FeedCore
import TestFixtures
import Testing

/// The session machine: cards show at once (their rows written after), swipes ride with the
/// next row, undo brings cards back in order, settings follow the rules, failures are kept.
@Suite struct SessionTests {
  let a = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let b = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let c = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  private func session(limit: Int = 5, onReplace: ReplacementStrategy = .clearTombstones)
    -> Session
  {
    Session(
      window: UndoWindow(configuration: UndoConfiguration(limit: limit, onReplace: onReplace)))
  }

  /// A feed that hands out `cards` in order, then `.loading`.
  private final class FakeFeed {
    var cards: [PreparedCard]
    init(_ cards: [PreparedCard]) { self.cards = cards }
    func take() -> FeedItem { cards.isEmpty ? .loading : .card(cards.removeFirst()) }
  }

  /// Takes the next card, shown at once, and commits its row as number `index`.
  private func show(
    _ session: inout Session, _ feed: FakeFeed, index: Int, now: Double = 10
  ) -> (item: FeedItem, position: Int) {
    let shown = session.next(now: now, feed: feed.take)
    let writes = session.takeWrites()
    session.committed(writes.last!.sequence, indices: [index])
    return shown
  }

  /// A session that showed `a` (#0), swiped it right and shows `b` (#1).
  private func swipedAShowingB() -> (Session, FakeFeed) {
    var session = session()
    let feed = FakeFeed([a, b])
    _ = show(&session, feed, index: 0)
    session.swipe(a, .right)
    _ = show(&session, feed, index: 1)
    return (session, feed)
  }

  /// The card shows at once under the number its row will get; until the row commits, the
  /// session knows it by a provisional number, which later changes may name.
  @Test func aCardIsShownAtOnceUnderTheNumberItsRowWillGet() {
    var session = Session(
      window: UndoWindow(configuration: UndoConfiguration()), nextIndex: 41)
    let feed = FakeFeed([a, b])
    let shown = session.next(now: 5, feed: feed.take)
    #expect(shown.item == .card(a) && shown.position == 41)
    #expect(session.current?.position == -1)
    #expect(
      session.takeWrites() == [
        Session.Write(
          change: StateChange(shown: [ShownRecord(a.card, shownAt: 5)], time: 5), sequence: 1)
      ])
    session.committed(1, indices: [41])
    #expect(session.current?.position == 41)
    // Another process wrote two rows before the next one: the commit says so.
    session.swipe(a, .right)
    #expect(session.next(now: 6, feed: feed.take).position == 42)
    session.committed(2, indices: [44])
    #expect(session.current?.position == 44)
    #expect(session.number(44) == 44)
  }

  @Test func aSwipeIsWrittenWithTheNextCardsRow() {
    var session = session()
    let feed = FakeFeed([a, b])
    _ = show(&session, feed, index: 3)
    session.swipe(a, .right)
    #expect(session.takeWrites().isEmpty)
    #expect(session.next(now: 20, feed: feed.take).item == .card(b))
    let tombstone = Tombstone(
      historyIndex: 3, cardID: a.card.id, type: a.card.type, direction: .right)
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(
          effects: [.entomb(tombstone)], shown: [ShownRecord(b.card, shownAt: 20)], time: 20)
      ])
  }

  @Test func swipesBeyondTheLimitAreCommittedInTheSameWrite() {
    var session = session(limit: 1)
    let feed = FakeFeed([a, b, c])
    _ = show(&session, feed, index: 0)
    session.swipe(a, .up)
    _ = show(&session, feed, index: 1)
    session.swipe(b, .left)
    _ = session.next(now: 30, feed: feed.take)
    let effects = session.takeWrites().last!.change.effects
    let first = Tombstone(historyIndex: 0, cardID: a.card.id, type: a.card.type, direction: .up)
    let second = Tombstone(historyIndex: 1, cardID: b.card.id, type: b.card.type, direction: .left)
    #expect(effects == [.entomb(second), .commit(first)])
  }

  @Test func undoBringsTheCardBackAndTheCurrentOneAfterIt() {
    var (session, feed) = swipedAShowingB()
    let restored = session.undo(now: 40) { $0 == a.card.id ? a : nil }
    #expect(restored == .restored(ShownCard(prepared: a, position: 0)))
    let tombstone = Tombstone(
      historyIndex: 0, cardID: a.card.id, type: a.card.type, direction: .right)
    // `b` waits to come back, unlisted, in the transaction that withdraws `a`'s reaction.
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(
          effects: [.restore(tombstone)], returning: ReturnQueue(waiting: [1]),
          events: [
            AnalyticsEvent(
              "Undo",
              ["card_id": .string("f1"), "card_type": .string("fact"), "reaction": .string("TFU")])
          ], time: 40)
      ])
    session.swipe(a, .left)
    let next = session.next(now: 41, feed: feed.take)
    #expect(next.item == .card(b))
    #expect(next.position == 1)
    // The second swipe of `a` is written with `b` leaving the queue: no new row came with it.
    let again = Tombstone(historyIndex: 0, cardID: a.card.id, type: a.card.type, direction: .left)
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(effects: [.entomb(again)], returning: ReturnQueue(), time: 41)
      ])
  }

  @Test func cardsPushedBackByUndosWaitInTheOrderTheyReturn() {
    var session = session()
    let feed = FakeFeed([a, b, c])
    _ = show(&session, feed, index: 0)
    session.swipe(a, .right)
    _ = show(&session, feed, index: 1)
    session.swipe(b, .left)
    _ = show(&session, feed, index: 2)
    _ = session.undo(now: 60) { $0 == b.card.id ? b : nil }
    _ = session.undo(now: 61) { $0 == a.card.id ? a : nil }
    #expect(
      session.takeWrites().map(\.change.returning) == [
        ReturnQueue(waiting: [2]), ReturnQueue(waiting: [1, 2]),
      ])
    session.swipe(a, .up)
    #expect(session.next(now: 62, feed: feed.take).position == 1)
    #expect(session.takeWrites().map(\.change.returning) == [ReturnQueue(waiting: [2])])
  }

  /// A source removed the swiped card: undo tells why and brings nothing back.
  @Test func undoOfACardItsSourceRemovedSaysSoAndMakesTheSwipeFinal() {
    var (session, _) = swipedAShowingB()
    _ = session.takeWrites()
    guard case .gone(let reason) = session.undo(now: 40, card: { _ in nil }) else {
      Issue.record("expected .gone")
      return
    }
    #expect(reason.contains("removed"))
    let tombstone = Tombstone(
      historyIndex: 0, cardID: a.card.id, type: a.card.type, direction: .right)
    // The swipe (its tombstone written with b's row) is final now: committed, its reaction
    // reported, never restored; `b` stays on screen.
    let written = session.takeWrites().flatMap(\.change.effects)
    #expect(written == [.commit(tombstone)])
    #expect(session.current?.prepared == b)
    #expect(session.window.tombstones.isEmpty)
    #expect(session.undo(now: 41) { _ in a } == .nothing)
  }

  /// Cards a source removed leave the queue of cards waiting to come back; the card
  /// on screen stays until swiped.
  @Test func removedCardsLeaveTheReturnQueueButNotTheScreen() {
    var (session, feed) = swipedAShowingB()
    _ = session.undo(now: 40) { $0 == a.card.id ? a : nil }  // b waits to come back
    _ = session.takeWrites()
    session.remove(ids: [a.card.id, b.card.id])
    #expect(session.current?.prepared == a)
    #expect(session.takeWrites().map(\.change.returning) == [ReturnQueue()])
    feed.cards = [c]
    session.swipe(a, .left)
    #expect(session.next(now: 41, feed: feed.take).item == .card(c))  // not b
  }

  /// A source's replacement keeps the swipes whose cards it still has
  /// (preserve-valid-tombstones) and makes the others final; clear-tombstones clears all.
  @Test func aSourceReplacementAppliesTheOnReplaceStrategy() {
    for strategy in [ReplacementStrategy.preserveValidTombstones, .clearTombstones] {
      var session = session(onReplace: strategy)
      let feed = FakeFeed([a, b, c])
      _ = show(&session, feed, index: 0)
      session.swipe(a, .right)
      _ = show(&session, feed, index: 1)
      session.swipe(b, .up)
      _ = show(&session, feed, index: 2)
      session.sourceReplaced(now: 50) { $0 == b.card.id }
      let kept = session.window.tombstones.map(\.cardID)
      #expect(kept == (strategy == .clearTombstones ? [] : [b.card.id]), "\(strategy)")
    }
  }

  @Test func undoWithNothingToUndoChangesNothing() {
    var session = session()
    #expect(session.undo(now: 1) { _ in a } == .nothing)
    #expect(session.takeWrites().isEmpty)
  }

  @Test func aCardWhoseRowIsBeingWrittenWaitsBehindTheUndoneCard() {
    var session = session()
    let feed = FakeFeed([a, b])
    _ = show(&session, feed, index: 0)
    session.swipe(a, .right)
    let shown = session.next(now: 50, feed: feed.take)  // b's row is being written
    #expect(shown.item == .card(b) && shown.position == 1)
    #expect(session.undo(now: 51) { _ in a } == .restored(ShownCard(prepared: a, position: 0)))
    let writes = session.takeWrites()
    // `b` waits to come back, unlisted, named by its provisional number until its row is in.
    #expect(writes.map(\.change.returning) == [nil, ReturnQueue(waiting: [-2])])
    let numbered = writes[1].change.resolvingProvisional { $0 == -2 ? 1 : nil }
    #expect(numbered.returning == ReturnQueue(waiting: [1]))
    session.committed(writes[0].sequence, indices: [1])
    session.swipe(a, .up)
    let next = session.next(now: 52, feed: feed.take)
    #expect(next.item == .card(b))
    #expect(next.position == 1)
    #expect(session.current?.position == 1)
  }

  @Test func quittingLeavesTheCardOnScreenThenTheWaitingOnesToComeBackFirst() {
    var (session, _) = swipedAShowingB()
    _ = session.undo(now: 70) { _ in a }
    _ = session.takeWrites()
    session.close(now: 71)
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(returning: ReturnQueue(onScreen: 0, waiting: [1]), time: 71)
      ])
  }

  @Test func cardsLeftToComeBackAreShownFirstWithTheirNumbersAndNoNewRow() {
    var session = Session(
      window: UndoWindow(configuration: UndoConfiguration()),
      returning: [ShownCard(prepared: b, position: 7), ShownCard(prepared: c, position: 9)])
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(returning: ReturnQueue(waiting: [7, 9]), time: 0)
      ])
    let feed = FakeFeed([a])
    let first = session.next(now: 80, feed: feed.take)
    #expect(first.item == .card(b) && first.position == 7)
    session.swipe(b, .right)
    let second = session.next(now: 81, feed: feed.take)
    #expect(second.item == .card(c) && second.position == 9)
    #expect(session.takeWrites().allSatisfy { $0.change.shown.isEmpty })
    #expect(feed.cards == [a])
  }

  @Test func aFailedWriteIsReportedUntilOneSucceeds() {
    var session = session()
    let feed = FakeFeed([a])
    let shown = session.next(now: 1, feed: feed.take)
    #expect(shown.item == .card(a) && shown.position == 0)
    session.failed(reason: "disk I/O error")
    #expect(session.saveProblem?.contains("disk I/O error") == true)
    // The card whose row could not be written is shown unsaved (its provisional number).
    #expect(session.number(session.current!.position) == -1)
    session.committed(1, indices: [0])
    #expect(session.saveProblem == nil)
    #expect(session.current?.position == 0)
  }

  /// A full disk: swipes go on, each card shown before its row is written; the
  /// writer gives each row its number in order and the session learns them as they commit.
  @Test func whileWritesFailCardsAreShownUnderProvisionalNumbersResolvedOnCommit() {
    var session = session()
    let feed = FakeFeed([a, b, c])
    _ = show(&session, feed, index: 4)
    session.failed(reason: "database or disk is full")
    session.swipe(a, .right)
    let second = session.next(now: 20, feed: feed.take)
    #expect(second.item == .card(b) && second.position < 0)
    let first = session.takeWrites()
    #expect(!first.last!.change.isProvisional)
    session.swipe(b, .left)
    let third = session.next(now: 21, feed: feed.take)
    #expect(third.item == .card(c) && third.position < 0 && third.position != second.position)
    let then = session.takeWrites().last!.change
    #expect(then.isProvisional)
    let numbered = then.resolvingProvisional { $0 == second.position ? 5 : nil }
    #expect(!numbered.isProvisional)
    #expect(
      numbered.effects == [
        .entomb(Tombstone(historyIndex: 5, cardID: b.card.id, type: b.card.type, direction: .left))
      ])
    #expect(numbered.shown == then.shown)
    session.committed(first.last!.sequence, indices: [5])
    #expect(session.saveProblem == nil)
    #expect(session.window.tombstones.map(\.historyIndex) == [4, 5])
    session.committed(first.last!.sequence + 1, indices: [6])
    #expect(session.current?.position == 6)
  }

  @Test func theLastEnabledTypeCannotBeTurnedOff() {
    var session = session()
    let decision = session.setEnabled(
      "fact", false, confirmed: false, enabledNow: ["fact"], now: 1)
    #expect(decision == .refused(TypeSettings.lastTypeMessage))
    #expect(session.takeWrites().isEmpty)
  }

  @Test func reEnablingATypeFollowsTheReplacementStrategy() {
    var session = session(onReplace: .askUser)
    let feed = FakeFeed([a, b])
    _ = show(&session, feed, index: 0)
    session.swipe(a, .right)
    _ = show(&session, feed, index: 1)
    let asked = session.setEnabled("word", true, confirmed: false, enabledNow: ["fact"], now: 2)
    guard case .needsConfirmation = asked else {
      Issue.record("expected a question, got \(asked)")
      return
    }
    #expect(session.window.tombstones.count == 1)
    let done = session.setEnabled("word", true, confirmed: true, enabledNow: ["fact"], now: 3)
    let tombstone = Tombstone(
      historyIndex: 0, cardID: a.card.id, type: a.card.type, direction: .right)
    #expect(done == .apply(enabled: ["fact", "word"], effects: [.commit(tombstone), .replace]))
    #expect(session.window.tombstones.isEmpty)
    #expect(
      session.takeWrites().map(\.change) == [
        StateChange(effects: [.commit(tombstone), .replace], enabled: ["word": true], time: 3)
      ])
  }
}
