import FeedCore
import Store
import TestFixtures
import Testing

@Suite struct StateStoreHistoryTests {
  @Test func appendsABatchNumberedAfterTheNewestRowAndListsNewestFirst() throws {
    let home = try TestHome()
    #expect(try home.state.history(limit: 1).isEmpty)
    let records = (0..<30_000).map {
      ShownRecord(cardID: "c\($0)", type: "fact", title: "T\($0)", shownAt: Double($0))
    }
    #expect(try home.state.append(records) == Array(0..<30_000))
    let entries = records.enumerated().map { $1.entry(at: $0) }
    #expect(try home.state.history(limit: 2) == [entries[29_999], entries[29_998]])
    #expect(try home.state.history(limit: 2, before: 10) == [entries[9], entries[8]])
    #expect(try home.state.append(Array(records.prefix(2))) == [30_000, 30_001])
    #expect(try home.state.historyCount() == 30_002)
  }

  @Test func anEmptyHistoryCountsNone() throws {
    let home = try TestHome()
    #expect(try home.state.historyCount() == 0)
  }

  @Test func setsAndClearsAReaction() throws {
    let home = try TestHome()
    try home.state.append([ShownRecord(cardID: "a", type: "fact", title: nil, shownAt: 5)])
    let swipe = Tombstone(historyIndex: 0, cardID: "a", type: "fact", direction: .up)
    try home.state.apply(StateChange(effects: [.entomb(swipe)], time: 6))
    #expect(try home.state.history(limit: 1).first?.reaction == .ctfo)
    try home.state.apply(StateChange(effects: [.restore(swipe)], time: 7))
    #expect(try home.state.history(limit: 1).first?.reaction == nil)
  }

  /// After an undo the card on screen is `b` (#1); `c` (#2), pushed back, must not be listed
  /// above it as if it came after it. Once shown again it is listed where it was.
  @Test func aCardWaitingToComeBackIsNotListedUntilShownAgain() throws {
    let home = try TestHome()
    let records = ["a", "b", "c"].map {
      ShownRecord(cardID: $0, type: "fact", title: $0.uppercased(), shownAt: 1)
    }
    try home.state.append(records)
    try home.state.apply(StateChange(returning: ReturnQueue(waiting: [2]), time: 2))
    #expect(try home.state.history(limit: 10).map(\.cardID) == ["b", "a"])
    #expect(try home.state.historyCount() == 2)
    #expect(try home.state.returning().map(\.cardID) == ["c"])
    try home.state.apply(StateChange(returning: ReturnQueue(), time: 3))
    #expect(try home.state.history(limit: 10).map(\.cardID) == ["c", "b", "a"])
    #expect(try home.state.historyCount() == 3)
    #expect(try home.state.returning().isEmpty)
  }

  /// The card on screen at quit stays listed (it is the newest shown) and comes back first,
  /// before the cards an undo pushed back.
  @Test func theCardOnScreenAtQuitComesBackFirstAndStaysListed() throws {
    let home = try TestHome()
    try home.state.append(
      ["a", "b", "c"].map { ShownRecord(cardID: $0, type: "fact", title: nil, shownAt: 1) })
    try home.state.apply(
      StateChange(returning: ReturnQueue(onScreen: 0, waiting: [2, 1]), time: 2))
    try home.reopen()
    #expect(try home.state.returning().map(\.index) == [0, 2, 1])
    #expect(try home.state.history(limit: 10).map(\.cardID) == ["a"])
    #expect(try home.state.historyCount() == 1)
  }

  @Test func typesAreEnabledUnlessDisabled() throws {
    let home = try TestHome()
    #expect(try home.state.disabledTypes().isEmpty)
    try home.state.apply(StateChange(enabled: ["joke": false], time: 0))
    try home.state.apply(StateChange(enabled: ["haiku": false], time: 0))
    try home.state.apply(StateChange(enabled: ["joke": true], time: 0))
    try home.reopen()
    #expect(try home.state.disabledTypes() == ["haiku"])
  }
}

@Suite struct StateStoreUndoTests {
  private func history(_ home: TestHome) throws -> [String: Reaction?] {
    Dictionary(
      uniqueKeysWithValues: try home.state.history(limit: 100).map { ($0.cardID, $0.reaction) })
  }

  private func events(_ home: TestHome) throws -> [String] {
    try home.state.pendingReactionEvents().map { "\($0.cardID) \($0.reaction.rawValue)" }
  }

  @Test func swipeWritesReactionTombstoneAndNextCardTogether() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration(limit: 5))
    try session.show("a")
    try session.swipe(.up, next: ("b", "fact"))
    #expect(try history(home) == ["a": .ctfo, "b": nil])
    #expect(
      try home.state.tombstones()
        == [Tombstone(historyIndex: 0, cardID: "a", type: "fact", direction: .up)])
    #expect(try events(home).isEmpty)
  }

  @Test func passingTheLimitCommitsTheOldestAsAnEvent() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration(limit: 2))
    try session.show("a")
    try session.swipe(.right, next: ("b", "fact"))
    try session.swipe(.left, next: ("c", "fact"))
    try session.swipe(.up, next: ("d", "fact"))
    #expect(try events(home) == ["a TFU"])
    #expect(try home.state.tombstones().map(\.cardID) == ["b", "c"])
    #expect(try history(home) == ["a": .tfu, "b": .tifb, "c": .ctfo, "d": nil])
  }

  @Test func undoWithdrawsTheReaction() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration())
    try session.show("a")
    try session.swipe(.left, next: ("b", "fact"))
    #expect(try session.undo()?.cardID == "a")
    #expect(try history(home) == ["a": nil, "b": nil])
    #expect(try home.state.tombstones().isEmpty)
    #expect(try session.undo() == nil)
    #expect(try events(home).isEmpty)
  }

  @Test func undoAfterARestartRestoresTheExactCards() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "a.jsonl",
      [
        #"{"id": "a", "type": "fact", "title": "A", "body": "first", "reveal": "r"}"#,
        #"{"id": "b", "type": "word", "body": "second", "source": "s"}"#,
        #"{"id": "c", "type": "fact", "body": "third", "url": "u"}"#, cardLine("d"),
      ])
    _ = try home.index.sync(decks: [deck])
    var session = try UndoSession(home, UndoConfiguration())
    try session.show("a")
    try session.swipe(.right, next: ("b", "word"))
    try session.swipe(.left, next: ("c", "fact"))
    try session.swipe(.up, next: ("d", "fact"))
    let cards = try ["a", "b", "c"].map { try home.index.card(id: $0) }

    try home.reopen()
    var relaunched = try UndoSession(home, UndoConfiguration())
    #expect(relaunched.launchEffects.isEmpty)
    var restored: [Card?] = []
    while let tombstone = try relaunched.undo() {
      restored.append(try home.index.card(id: tombstone.cardID))
    }
    #expect(restored == cards.reversed())
    #expect(try history(home) == ["a": nil, "b": nil, "c": nil, "d": nil])
  }

  @Test func restoreOnLaunchKeepsUndoAndStillEvicts() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration(limit: 2))
    try session.show("a")
    try session.swipe(.right, next: ("b", "fact"))
    try session.swipe(.right, next: ("c", "fact"))
    try home.reopen()
    var relaunched = try UndoSession(home, UndoConfiguration(limit: 2, onLaunch: .restore))
    #expect(relaunched.window.tombstones.map(\.cardID) == ["a", "b"])
    try relaunched.show("c2")
    try relaunched.swipe(.left)
    #expect(try events(home) == ["a TFU"])
    #expect(try home.state.tombstones().map(\.cardID) == ["b", "c2"])
  }

  @Test func restoreWithALowerLimitEvictsAtLaunch() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration(limit: 3))
    try session.show("a")
    try session.swipe(.right, next: ("b", "fact"))
    try session.swipe(.up, next: ("c", "fact"))
    let relaunched = try UndoSession(home, UndoConfiguration(limit: 1, onLaunch: .restore))
    #expect(relaunched.window.tombstones.map(\.cardID) == ["b"])
    #expect(try events(home) == ["a TFU"])
  }

  @Test func clearGracefullyCommitsLastRunsSwipesAtLaunch() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration())
    try session.show("a")
    try session.swipe(.right, next: ("b", "fact"))
    try session.swipe(.up, next: ("c", "fact"))
    try home.reopen()
    var relaunched = try UndoSession(home, UndoConfiguration(onLaunch: .clearGracefully))
    #expect(try events(home) == ["a TFU", "b CTFO"])
    #expect(try home.state.tombstones().isEmpty)
    #expect(try relaunched.undo() == nil)
    #expect(try history(home) == ["a": .tfu, "b": .ctfo, "c": nil])
  }

  @Test func ignoreDropsLastRunsTombstonesWithoutEvents() throws {
    let home = try TestHome()
    var session = try UndoSession(home, UndoConfiguration())
    try session.show("a")
    try session.swipe(.left, next: ("b", "fact"))
    try home.reopen()
    var relaunched = try UndoSession(home, UndoConfiguration(onLaunch: .ignore))
    #expect(try relaunched.undo() == nil)
    #expect(try home.state.tombstones().isEmpty)
    #expect(try events(home).isEmpty)
    #expect(try history(home) == ["a": .tifb, "b": nil])
    let third = try UndoSession(home, UndoConfiguration(onLaunch: .restore))
    #expect(third.window.tombstones.isEmpty)
  }

  @Test func clearTombstonesOnReplaceCommitsThem() throws {
    let home = try TestHome()
    var session = try swipedTwo(home, .clearTombstones)
    #expect(try session.replace(enabled: ["x", "y"]).last == .replace)
    #expect(try events(home) == ["a TFU", "b TFU"])
    #expect(try session.undo() == nil)
  }

  @Test func preserveValidTombstonesOnReplaceKeepsEnabledTypes() throws {
    let home = try TestHome()
    var session = try swipedTwo(home, .preserveValidTombstones)
    _ = try session.replace(enabled: ["y"])
    #expect(try events(home) == ["a TFU"])
    #expect(try home.state.tombstones().map(\.cardID) == ["b"])
    #expect(try session.undo()?.cardID == "b")
    #expect(try session.undo() == nil)
  }

  @Test func blockIfTombstonesRefusesAndWritesNothing() throws {
    let home = try TestHome()
    var session = try swipedTwo(home, .blockIfTombstones)
    let effects = try session.replace(enabled: ["y"])
    guard case .refuseReplacement = effects.first else {
      Issue.record("expected a refusal, got \(effects)")
      return
    }
    #expect(try events(home).isEmpty)
    #expect(try home.state.tombstones().map(\.cardID) == ["a", "b"])
  }

  @Test func askUserAppliesTheAnswer() throws {
    let home = try TestHome()
    var session = try swipedTwo(home, .askUser)
    _ = try session.replace(enabled: ["y"])
    #expect(try home.state.tombstones().count == 2)
    _ = try session.answer(false)
    #expect(try home.state.tombstones().count == 2)
    _ = try session.replace(enabled: ["y"])
    #expect(try session.answer(true).last == .replace)
    #expect(try events(home) == ["a TFU", "b TFU"])
    #expect(try home.state.tombstones().isEmpty)
  }

  @Test func deletingASwipedCardDoesNotSkipTheNextCard() throws {
    let home = try TestHome()
    let deck = try home.deck("a.jsonl", [cardLine("a"), cardLine("b"), cardLine("c")])
    _ = try home.index.sync(decks: [deck])
    var session = try UndoSession(home, UndoConfiguration())
    try session.show("a")
    try session.swipe(.right, next: ("b", "fact"))
    try home.deck("a.jsonl", [cardLine("b"), cardLine("c")])
    try home.setModified(deck, 2_000_000)
    _ = try home.index.sync(decks: [deck])
    // What the store answers, not what the helper remembers: the newest history row is still b,
    // unreacted, numbered as when it was shown, and b is still in the index.
    let newest = try #require(try home.state.history(limit: 1).first)
    #expect(newest.cardID == "b")
    #expect(newest.reaction == nil)
    #expect(newest == session.shown)
    #expect(try history(home) == ["a": .tfu, "b": nil])
    #expect(try home.index.card(id: "b")?.id == "b")
    try session.swipe(.left, next: ("c", "fact"))
    #expect(try history(home) == ["a": .tfu, "b": .tifb, "c": nil])
    #expect(try session.undo()?.cardID == "b")
    let gone = try #require(try session.undo())
    #expect(gone.cardID == "a")
    #expect(try home.index.card(id: gone.cardID) == nil)
  }

  /// Shows a (type x) and b (type y), swipes both right, and shows c.
  private func swipedTwo(_ home: TestHome, _ strategy: ReplacementStrategy) throws -> UndoSession {
    var session = try UndoSession(home, UndoConfiguration(onReplace: strategy))
    try session.show("a", type: "x")
    try session.swipe(.right, next: ("b", "y"))
    try session.swipe(.right, next: ("c", "x"))
    return session
  }
}
