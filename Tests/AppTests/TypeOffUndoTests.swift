import App
import CardPreparation
import FeedCore
import TestFixtures
import Testing

/// Turning a type off changes the collection as turning one on does, so the undo window's
/// `on-replace` strategy applies: a swipe of a type just turned off does not come back.
@Suite struct TypeOffUndoTests {
  let fact = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let word = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let joke = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  /// Deals `card` as history row `index` and draws it; `sequence` is its row's write.
  private func show(
    _ card: PreparedCard, index: Int, sequence: UInt64, _ machine: inout AppMachine,
    now: Double
  ) {
    _ = machine.reduce(.fed(.card(card)), now: now)
    _ = machine.reduce(.frameDrawn, now: now)
    _ = machine.reduce(.written([.committed(sequence, indices: [index])]), now: now)
    _ = machine.reduce(.app(.wake), now: now)
    _ = machine.reduce(.frameDrawn, now: now)
  }

  /// A machine with `onReplace` that showed the word card, then the fact card, and swiped
  /// both: the joke card is on screen, two swipes can be undone.
  private func wordAndFactSwiped(_ onReplace: ReplacementStrategy) -> AppMachine {
    var machine = AppMachine(
      screen: AppState(width: 80, height: 24),
      session: Session(window: UndoWindow(configuration: UndoConfiguration(onReplace: onReplace))),
      now: 0)
    _ = machine.start(now: 1)
    show(word, index: 0, sequence: 1, &machine, now: 1)
    _ = machine.reduce(.app(.key(.right)), now: 2)
    show(fact, index: 1, sequence: 2, &machine, now: 2)
    _ = machine.reduce(.app(.key(.left)), now: 3)
    show(joke, index: 2, sequence: 3, &machine, now: 3)
    #expect(machine.session.window.tombstones.map(\.cardID) == ["w1", "f1"])
    return machine
  }

  /// Turns `type` off as the settings screen does (`s`, then Space on its row), the feed
  /// dealing `enabled`; back on the feed after.
  private func turnOff(
    _ type: String, _ machine: inout AppMachine, enabled: Set<String>, now: Double
  ) -> [AppMachine.Effect] {
    _ = machine.reduce(.app(.key(.character("s"))), now: now)
    _ = machine.reduce(.app(.settingsLoaded(Fixtures.statuses(), problems: [])), now: now)
    let row = Fixtures.statuses().firstIndex { $0.type.name == type }!
    for _ in 0..<row { _ = machine.reduce(.app(.key(.down)), now: now) }
    #expect(
      machine.reduce(.app(.key(.space)), now: now) == [
        .askEnabledTypes(type: type, enabled: false, confirmed: false)
      ])
    return machine.reduce(
      .enabledTypes(enabled, type: type, enabled: false, confirmed: false), now: now)
  }

  @Test func withClearTombstonesTurningATypeOffMakesEverySwipeFinal() {
    var machine = wordAndFactSwiped(.clearTombstones)
    let effects = turnOff("word", &machine, enabled: ["fact", "word", "joke"], now: 4)
    #expect(effects == [.enableTypes(["fact", "joke"])])
    #expect(machine.session.window.tombstones.isEmpty)
    _ = machine.reduce(.app(.key(.escape)), now: 5)
    #expect(machine.reduce(.app(.key(.character("u"))), now: 5) == [])
    #expect(machine.screen.message == "Nothing to undo")
  }

  @Test func withPreserveValidTombstonesOnlyTheTypeTurnedOffIsFinal() {
    var machine = wordAndFactSwiped(.preserveValidTombstones)
    _ = turnOff("word", &machine, enabled: ["fact", "word", "joke"], now: 4)
    #expect(machine.session.window.tombstones.map(\.cardID) == ["f1"])
    // The setting's write makes the word card's swipe final.
    let written = machine.reduce(.frameDrawn, now: 4).flatMap { effect -> [UndoEffect] in
      guard case .write(let write) = effect else { return [] }
      return write.change.effects
    }
    #expect(
      written.contains(
        .commit(Tombstone(historyIndex: 0, cardID: "w1", type: "word", direction: .right))))
    _ = machine.reduce(.app(.key(.escape)), now: 5)
    #expect(machine.reduce(.app(.key(.character("u"))), now: 5) == [.findCard(id: "f1", for: .undo)])
  }

  /// An undo put the joke card back in the queue: turning the word type off makes the word
  /// card's swipe final and leaves the joke card to come back.
  @Test func aCardOfAnotherTypeWaitingToComeBackStays() {
    var machine = wordAndFactSwiped(.clearTombstones)
    #expect(machine.reduce(.app(.key(.character("u"))), now: 4) == [.findCard(id: "f1", for: .undo)])
    _ = machine.reduce(.found(fact, for: .undo), now: 4)
    _ = machine.reduce(.frameDrawn, now: 4)
    _ = turnOff("word", &machine, enabled: ["fact", "word", "joke"], now: 5)
    #expect(machine.session.window.tombstones.isEmpty)
    _ = machine.reduce(.app(.key(.escape)), now: 6)
    _ = machine.reduce(.app(.key(.right)), now: 6)
    #expect(machine.screen.shownCard?.prepared.card.id == "j1")
  }

  @Test func withBlockIfTombstonesATypeIsNotTurnedOffWhileSwipesCanBeUndone() {
    var machine = wordAndFactSwiped(.blockIfTombstones)
    #expect(turnOff("word", &machine, enabled: ["fact", "word", "joke"], now: 4) == [])
    #expect(machine.screen.message?.hasPrefix("Cannot change the types") == true)
    #expect(machine.session.window.tombstones.count == 2)
  }

  @Test func withAskUserTurningATypeOffAsksFirst() {
    var machine = wordAndFactSwiped(.askUser)
    #expect(turnOff("word", &machine, enabled: ["fact", "word", "joke"], now: 4) == [])
    guard case .confirm = machine.screen.mode else {
      Issue.record("no question: \(machine.screen.mode)")
      return
    }
    #expect(machine.session.window.tombstones.count == 2)
  }
}
