import App
import CardText
import FeedCore
import CardPreparation
import TestFixtures
import Testing

/// The app's machine with its session, as the runner drives it but without a terminal or a
/// database: keys and the writer's reports go in, writes and other effects come out.
@Suite struct AppMachineTests {
  let a = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let b = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let c = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  private func machine(limit: Int = 5, analytics: Bool = true, hooks: Bool = false)
    -> AppMachine
  {
    let window = UndoWindow(configuration: UndoConfiguration(limit: limit))
    return AppMachine(
      screen: AppState(width: 80, height: 24), session: Session(window: window),
      analytics: analytics, hooks: hooks, now: 0)
  }

  /// The writes the machine hands over once a frame is drawn (the refill aside).
  private func writes(_ machine: inout AppMachine, now: Double) -> [Session.Write] {
    machine.reduce(.frameDrawn, now: now).filter { $0 != .refill }.map { effect in
      guard case .write(let write) = effect else {
        Issue.record("not a write: \(effect)")
        return Session.Write(change: StateChange(time: 0), sequence: 0)
      }
      return write
    }
  }

  /// A machine showing `a` as history row 41, started at 0 and dealt at 1, its writes
  /// committed (1: AppStart, 2: a's row), drawn on screen.
  private func showingA(limit: Int = 5, hooks: Bool = false) -> AppMachine {
    var machine = machine(limit: limit, hooks: hooks)
    #expect(machine.start(now: 1).last == .takeFromFeed)
    _ = machine.reduce(.fed(.card(a)), now: 1)
    _ = writes(&machine, now: 1)
    _ = machine.reduce(
      .written([.committed(1, indices: []), .committed(2, indices: [41])]), now: 2)
    _ = machine.reduce(.app(.wake), now: 2)
    #expect(machine.reduce(.frameDrawn, now: 2) == [])
    return machine
  }

  @Test func startRecordsAppStartAndAsksTheFeedForACard() {
    var machine = machine()
    #expect(
      machine.start(now: 1) == [
        .loadTypes, .resizeTextArea(TextArea(width: 72, height: 18)), .takeFromFeed,
      ])
    #expect(machine.reduce(.fed(.card(a)), now: 1) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 0)))
    #expect(
      writes(&machine, now: 1) == [
        Session.Write(
          change: StateChange(events: [AnalyticsEvent("AppStart")], time: 0), sequence: 1),
        Session.Write(
          change: StateChange(shown: [ShownRecord(a.card, shownAt: 1)], time: 1), sequence: 2),
      ])
  }

  @Test func aSwipeShowsTheNextCardAtOnceAndAsksForOneWriteOnceTheFrameIsDrawn() {
    var machine = showingA()
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 41)))

    // The key: the card slides out, the feed deals the next one, which shows at once under
    // the number its row will get.
    #expect(machine.reduce(.app(.key(.right)), now: 3.5) == [.takeFromFeed])
    #expect(machine.screen.slide?.direction == .right)
    #expect(machine.reduce(.fed(.card(b)), now: 3.5) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))

    // Once the frame is drawn, one write: the swipe's reaction and tombstone, the focus on
    // the swiped card (on screen since it was dealt), and the next card's history row.
    let tombstone = Tombstone(
      historyIndex: 41, cardID: a.card.id, type: a.card.type, direction: .right)
    #expect(
      writes(&machine, now: 3.6) == [
        Session.Write(
          change: StateChange(
            effects: [.entomb(tombstone)], shown: [ShownRecord(b.card, shownAt: 3.5)],
            events: [.focus(cardID: a.card.id, type: a.card.type, milliseconds: 2500)],
            time: 3.5),
          sequence: 3)
      ])
    #expect(machine.session.window.tombstones == [tombstone])

    // A wake-up before the commit: nothing changes, nothing more is written.
    #expect(machine.reduce(.app(.wake), now: 3.7) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    #expect(writes(&machine, now: 3.7) == [])

    // The writer's report: the analytics may go; the card keeps its number.
    #expect(
      machine.reduce(.written([.committed(3, indices: [42])]), now: 3.8) == [.deliverAnalytics])
    #expect(machine.reduce(.app(.wake), now: 3.8) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    #expect(machine.screen.saveProblem == nil)
  }

  @Test func aSwipeTypedBeforeTheFirstFrameActsOnceTheCardIsDrawn() {
    var machine = machine()
    _ = machine.start(now: 1)
    _ = machine.reduce(.fed(.card(a)), now: 1)
    #expect(machine.reduce(.app(.key(.left)), now: 1) == [])
    #expect(machine.screen.typedAhead == [.left])
    #expect(machine.session.window.tombstones.isEmpty)
    // The card is dealt at once; the swipe typed ahead takes it once a frame has shown it
    // (the frame's writes go out first).
    #expect(machine.reduce(.frameDrawn, now: 2).last == .takeFromFeed)
    #expect(machine.screen.typedAhead.isEmpty)
    #expect(machine.session.window.tombstones.map(\.cardID) == [a.card.id])
  }

  @Test func undoBringsTheCardBackAndWritesTheRestore() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    _ = writes(&machine, now: 3)
    _ = machine.reduce(.written([.committed(3, indices: [42])]), now: 4)
    _ = machine.reduce(.app(.wake), now: 4)

    // The machine asks for the swiped card; with it, the card is back on screen.
    #expect(machine.reduce(.app(.key(.character("u"))), now: 6) == [.findCard(id: a.card.id, for: .undo)])
    #expect(machine.reduce(.found(a, for: .undo), now: 6) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 41)))
    let tombstone = Tombstone(
      historyIndex: 41, cardID: a.card.id, type: a.card.type, direction: .right)
    let undo = AnalyticsEvent(
      "Undo",
      [
        "card_id": .string(a.card.id), "card_type": .string(a.card.type),
        "reaction": .string(Reaction.tfu.rawValue),
      ])
    #expect(
      writes(&machine, now: 6) == [
        Session.Write(
          change: StateChange(
            effects: [.restore(tombstone)], returning: ReturnQueue(onScreen: nil, waiting: [42]),
            events: [.focus(cardID: b.card.id, type: b.card.type, milliseconds: 3000), undo],
            time: 6),
          sequence: 4)
      ])

    // The card that was on screen comes back next, without the feed.
    _ = machine.reduce(.app(.key(.left)), now: 7)
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
  }

  @Test func undoWithNothingToUndoSaysSo() {
    var machine = showingA()
    #expect(machine.reduce(.app(.key(.character("u"))), now: 3) == [])
    #expect(machine.screen.message == "Nothing to undo")
    #expect(writes(&machine, now: 3) == [])
  }

  @Test func undoOfACardItsSourceRemovedMakesTheSwipeFinal() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    _ = writes(&machine, now: 3)
    _ = machine.reduce(.written([.committed(3, indices: [42])]), now: 4)
    _ = machine.reduce(.app(.wake), now: 4)
    _ = machine.reduce(.app(.key(.character("u"))), now: 5)
    #expect(machine.reduce(.found(nil, for: .undo), now: 5) == [])
    #expect(machine.screen.message?.contains("cannot come back") == true)
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    let tombstone = Tombstone(
      historyIndex: 41, cardID: a.card.id, type: a.card.type, direction: .right)
    #expect(writes(&machine, now: 5).map(\.change.effects) == [[.commit(tombstone)]])
  }

  @Test func aSaveProblemIsShownAndTheCardShowsUnderAProvisionalNumber() {
    var machine = machine()
    _ = machine.start(now: 1)
    _ = machine.reduce(.fed(.card(a)), now: 1)
    _ = writes(&machine, now: 1)
    #expect(machine.reduce(.written([.failed(reason: "disk I/O error")]), now: 2) == [.retryWrites])
    #expect(
      machine.screen.saveProblem
        == "Cannot save to the state database (disk I/O error); retrying, nothing is lost.")
    _ = machine.reduce(.app(.wake), now: 2)
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: -2)))
    // Once the writer succeeds, the problem goes and the card gets its row's number.
    #expect(
      machine.reduce(.written([.committed(1, indices: []), .committed(2, indices: [9])]), now: 3)
        == [.deliverAnalytics])
    #expect(machine.screen.saveProblem == nil)
    #expect(machine.session.current?.position == 9)
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 9)))
  }

  @Test func theHookRunsOnAReactionOnceTheWriteThatMadeItFinalCommits() {
    var machine = showingA(limit: 1, hooks: true)
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    _ = writes(&machine, now: 3)
    _ = machine.reduce(.written([.committed(3, indices: [42])]), now: 4)
    _ = machine.reduce(.app(.wake), now: 4)
    // The second swipe pushes the first out of a window of one: its write makes it final.
    _ = machine.reduce(.app(.key(.left)), now: 5)
    _ = machine.reduce(.fed(.card(c)), now: 5)
    #expect(writes(&machine, now: 5).count == 1)
    #expect(machine.finalAfterWrite[4]?.map(\.cardID) == [a.card.id])
    #expect(
      machine.reduce(.written([.committed(4, indices: [43])]), now: 6) == [
        .runHook(cardID: a.card.id, reaction: .tfu, time: 5), .deliverAnalytics,
      ])
    #expect(machine.finalAfterWrite.isEmpty)
  }

  @Test func historyOpenedIsRecordedOnceAndTheHistoryIsReadAfterEveryWrite() {
    var machine = showingA()
    let effects = machine.reduce(.app(.key(.character("j"))), now: 3)
    #expect(effects.last == .loadHistory(limit: AppState.historyLimit))
    #expect(
      effects.dropLast() == [
        .write(
          Session.Write(
            change: StateChange(events: [AnalyticsEvent("HistoryOpened")], time: 3), sequence: 3))
      ])
  }

  /// The stats count the swipe just made: its write goes out before they are read.
  @Test func theStatsAreReadAfterEveryWriteSoFar() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    let effects = machine.reduce(.app(.key(.character("i"))), now: 4)
    #expect(effects.last == .loadStats)
    #expect(
      effects.dropLast().contains { if case .write = $0 { true } else { false } },
      "the swipe's write goes first: \(effects)")
  }

  @Test func quittingWritesTheFocusTheQuitAndTheCardToShowFirst() {
    var machine = showingA()
    #expect(
      machine.reduce(.closing, now: 4) == [
        .stopLink,
        .write(
          Session.Write(
            change: StateChange(
              returning: ReturnQueue(onScreen: 41, waiting: []),
              events: [
                .focus(cardID: a.card.id, type: a.card.type, milliseconds: 3000),
                AnalyticsEvent("AppQuit"),
              ], time: 4),
            sequence: 3)),
        .finishWrites,
      ])
    // After that the screens take no more actions; the writer's last reports end the run.
    #expect(machine.reduce(.app(.wake), now: 5) == [])
    #expect(
      machine.reduce(.writesFinished(unsaved: [], reports: [.committed(3, indices: [])]), now: 5)
        == [.deliverAnalytics, .finish(unsaved: [], saveProblem: nil)])
  }

  /// The ready queue refills once the frame showing the card taken is out, once per frame:
  /// the frame answering the key waits for no preparation to start.
  @Test func theRefillFollowsTheFrameOfACardTaken() {
    var machine = showingA()
    let swipe = machine.reduce(.app(.key(.right)), now: 3)
    #expect(swipe == [.takeFromFeed])
    #expect(!machine.reduce(.fed(.card(b)), now: 3).contains(.refill))
    let drawn = machine.reduce(.frameDrawn, now: 3)
    #expect(drawn.filter { $0 == .refill }.count == 1)
    let writeAt = drawn.firstIndex { if case .write = $0 { true } else { false } }
    let refillAt = drawn.firstIndex(of: .refill)
    #expect(writeAt != nil && refillAt != nil && writeAt! < refillAt!, "\(drawn)")
    #expect(!machine.reduce(.frameDrawn, now: 3).contains(.refill), "nothing taken since")
    // The placeholder taken is no card: nothing to refill.
    _ = machine.reduce(.app(.key(.right)), now: 4)
    _ = machine.reduce(.fed(.loading), now: 4)
    #expect(!machine.reduce(.frameDrawn, now: 4).contains(.refill))
  }

  @Test func aTypeTurnedOffIsWrittenAndTheFeedToldWhichTypesItDeals() {
    var machine = showingA()
    #expect(machine.reduce(.app(.key(.character("s"))), now: 3) == [.loadSettings])
    _ = machine.reduce(.app(.settingsLoaded(Fixtures.statuses(), problems: [])), now: 3)
    #expect(
      machine.reduce(.app(.key(.space)), now: 4) == [
        .askEnabledTypes(type: "fact", enabled: false, confirmed: false)
      ])
    let enabled: Set<String> = ["fact", "word", "joke"]
    #expect(
      machine.reduce(.enabledTypes(enabled, type: "fact", enabled: false, confirmed: false), now: 4)
        == [.enableTypes(["word", "joke"])])
    #expect(
      writes(&machine, now: 4).map(\.change) == [StateChange(enabled: ["fact": false], time: 4)])
  }

  @Test func theLastTypeCannotBeTurnedOff() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.character("s"))), now: 3)
    _ = machine.reduce(.app(.settingsLoaded(Fixtures.statuses(), problems: [])), now: 3)
    _ = machine.reduce(.app(.key(.space)), now: 4)
    #expect(
      machine.reduce(
        .enabledTypes(["fact"], type: "fact", enabled: false, confirmed: false), now: 4) == [])
    #expect(machine.screen.message != nil)
    #expect(writes(&machine, now: 4) == [])
  }

  @Test func aLiveChangeRedrawsTheCardOnScreen() {
    var machine = showingA()
    var changed = a
    changed.card.title = "Changed"
    _ = machine.reduce(.live(LiveChanges(updated: [changed], message: "deck edited")), now: 3)
    #expect(machine.screen.feed == .card(ShownCard(prepared: changed, position: 41)))
    #expect(machine.session.current?.prepared == changed)
    #expect(machine.screen.message == "deck edited")
  }

  @Test func theServersLineKeepsTheQueuedCountAcrossPulls() {
    var machine = showingA()
    _ = machine.reduce(.serverNews(pulled: nil, queuedEvents: 3), now: 3)
    let notice = ServerLine.Notice(id: "n1", text: "Hello")
    let pulled = ServerLine(offline: true, notices: [notice], queuedEvents: 0, userStatus: "vip")
    _ = machine.reduce(.serverNews(pulled: pulled, queuedEvents: nil), now: 4)
    #expect(
      machine.screen.server
        == ServerLine(offline: true, notices: [notice], queuedEvents: 3, userStatus: "vip"))
  }

  @Test func settingsAnotherProcessWroteAreAdoptedAndTheAppsOwnAreNot() {
    var machine = machine()
    let all: Set<String> = ["fact", "word", "joke"]
    // The first look only learns what the database holds.
    #expect(
      machine.reduce(.storedSettings(disabled: [], types: all, enabledNow: all), now: 1) == [])
    #expect(
      machine.reduce(.storedSettings(disabled: ["joke"], types: all, enabledNow: all), now: 2)
        == [.enableTypes(["fact", "word"])])
    // This app's own setting, written: the feed deals those types already.
    #expect(
      machine.reduce(
        .storedSettings(disabled: ["joke", "word"], types: all, enabledNow: ["fact"]), now: 3)
        == [])
    // Every type off is never adopted.
    #expect(
      machine.reduce(.storedSettings(disabled: all, types: all, enabledNow: ["fact"]), now: 4) == []
    )
  }
}
