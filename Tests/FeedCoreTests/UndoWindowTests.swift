import FeedCore
import Testing

private func tomb(_ index: Int, type: String = "fact") -> Tombstone {
  Tombstone(historyIndex: index, cardID: "c\(index)", type: type, direction: .right)
}

private func window(
  limit: Int = 3, onReplace: ReplacementStrategy = .clearTombstones, _ indices: [Int] = [],
  types: [String]? = nil
) -> UndoWindow {
  let stones = indices.enumerated().map { tomb($1, type: types?[$0] ?? "fact") }
  return UndoWindow(
    configuration: UndoConfiguration(limit: limit, onReplace: onReplace), tombstones: stones)
}

@Suite struct UndoWindowSwipeTests {
  @Test func swipeEntombsWithinTheLimit() {
    var w = window(limit: 2)
    #expect(w.swipe(tomb(0)) == [.entomb(tomb(0))])
    #expect(w.swipe(tomb(1)) == [.entomb(tomb(1))])
    #expect(w.tombstones == [tomb(0), tomb(1)])
  }

  @Test func passingTheLimitCommitsTheOldest() {
    var w = window(limit: 2, [0, 1])
    #expect(w.swipe(tomb(2)) == [.entomb(tomb(2)), .commit(tomb(0))])
    #expect(w.tombstones == [tomb(1), tomb(2)])
  }

  @Test func limitZeroCommitsEverySwipeAtOnce() {
    var w = window(limit: 0)
    #expect(w.swipe(tomb(0)) == [.entomb(tomb(0)), .commit(tomb(0))])
    #expect(w.tombstones.isEmpty)
    #expect(w.undo().isEmpty)
  }

  @Test func undoRestoresNewestFirst() {
    var w = window([0, 1, 2])
    #expect(w.undo() == [.restore(tomb(2))])
    #expect(w.undo() == [.restore(tomb(1))])
    #expect(w.undo() == [.restore(tomb(0))])
    #expect(w.undo().isEmpty)
  }

  @Test func negativeLimitIsZero() {
    #expect(UndoConfiguration(limit: -3).limit == 0)
  }

  @Test func configSpellingsAreTheRawValues() {
    #expect(ReplacementStrategy.allCases.map(\.rawValue) == [
      "clear-tombstones", "preserve-valid-tombstones", "block-if-tombstones", "ask-user",
    ])
    #expect(RestoreMode.allCases.map(\.rawValue) == ["restore", "clear-gracefully", "ignore"])
  }
}

@Suite struct UndoWindowReplacementTests {
  @Test func emptyWindowAlwaysReplaces() {
    for strategy in ReplacementStrategy.allCases {
      var w = window(onReplace: strategy)
      #expect(w.replaceCollection(enabledTypes: []) == [.replace])
    }
  }

  @Test func clearTombstonesCommitsAllThenReplaces() {
    var w = window(onReplace: .clearTombstones, [0, 1])
    let effects = w.replaceCollection(enabledTypes: ["fact"])
    #expect(effects == [.commit(tomb(0)), .commit(tomb(1)), .replace])
    #expect(w.tombstones.isEmpty)
  }

  @Test func preserveValidKeepsEnabledTypesInOrder() {
    var w = window(onReplace: .preserveValidTombstones, [0, 1, 2], types: ["a", "b", "a"])
    let effects = w.replaceCollection(enabledTypes: ["a"])
    #expect(effects == [.commit(tomb(1, type: "b")), .replace])
    #expect(w.tombstones == [tomb(0, type: "a"), tomb(2, type: "a")])
    #expect(w.undo() == [.restore(tomb(2, type: "a"))])
  }

  @Test func blockRefusesAndKeepsEverything() {
    var w = window(onReplace: .blockIfTombstones, [0, 1])
    let before = w
    #expect(
      w.replaceCollection(enabledTypes: [])
        == [
          .refuseReplacement(
            "Cannot change the types while 2 swipes can be undone"
              + " (on-replace = block-if-tombstones).")
        ])
    #expect(w == before)
  }

  @Test func askUserYesClearsAndReplaces() {
    var w = window(onReplace: .askUser, [0])
    #expect(
      w.replaceCollection(enabledTypes: [])
        == [.askUser("Changing the types clears the undo history (1 swipe). Continue? (y/n)")])
    #expect(w.awaitingAnswer)
    #expect(w.tombstones == [tomb(0)])
    #expect(w.answerReplacement(true) == [.commit(tomb(0)), .replace])
    #expect(w.tombstones.isEmpty)
    #expect(!w.awaitingAnswer)
  }

  @Test func askUserNoKeepsTheWindow() {
    var w = window(onReplace: .askUser, [0, 1])
    _ = w.replaceCollection(enabledTypes: [])
    #expect(w.answerReplacement(false) == [.refuseReplacement("Settings unchanged: undo history kept.")])
    #expect(w.tombstones == [tomb(0), tomb(1)])
  }

  @Test func anAnswerWithoutAQuestionDoesNothing() {
    var w = window(onReplace: .askUser, [0])
    #expect(w.answerReplacement(true).isEmpty)
    #expect(w.tombstones == [tomb(0)])
  }

  @Test func undoAfterReplacementDoesNotCrash() {
    var w = window(onReplace: .clearTombstones, [0, 1])
    _ = w.replaceCollection(enabledTypes: [])
    #expect(w.undo().isEmpty)
    #expect(w.swipe(tomb(5)) == [.entomb(tomb(5))])
    #expect(w.undo() == [.restore(tomb(5))])
  }
}

@Suite struct UndoWindowLaunchTests {
  private func config(_ mode: RestoreMode, limit: Int = 3) -> UndoConfiguration {
    UndoConfiguration(limit: limit, onLaunch: mode)
  }

  @Test func restoreKeepsTheTombstones() {
    let (w, effects) = UndoWindow.launch(persisted: [tomb(0), tomb(1)], configuration: config(.restore))
    #expect(effects.isEmpty)
    #expect(w.tombstones == [tomb(0), tomb(1)])
  }

  @Test func restoreEvictsWhatALoweredLimitNoLongerHolds() {
    let persisted = [tomb(0), tomb(1), tomb(2)]
    let (w, effects) = UndoWindow.launch(persisted: persisted, configuration: config(.restore, limit: 1))
    #expect(effects == [.commit(tomb(0)), .commit(tomb(1))])
    #expect(w.tombstones == [tomb(2)])
  }

  @Test func restoredWindowStillEvictsOnTheNextSwipe() {
    var (w, _) = UndoWindow.launch(persisted: [tomb(0), tomb(1)], configuration: config(.restore, limit: 2))
    #expect(w.swipe(tomb(2)) == [.entomb(tomb(2)), .commit(tomb(0))])
  }

  @Test func clearGracefullyCommitsEverything() {
    let (w, effects) = UndoWindow.launch(
      persisted: [tomb(0), tomb(1)], configuration: config(.clearGracefully))
    #expect(effects == [.commit(tomb(0)), .commit(tomb(1))])
    #expect(w.tombstones.isEmpty)
  }

  @Test func ignoreDiscardsWithoutCommitting() {
    let (w, effects) = UndoWindow.launch(persisted: [tomb(0), tomb(1)], configuration: config(.ignore))
    #expect(effects == [.discard(tomb(0)), .discard(tomb(1))])
    #expect(w.tombstones.isEmpty)
  }
}
