import App
import CardPreparation
import CardText
import FeedCore
import Store
import Testing

@testable import CTFOProgram

/// The runner of the app's effects over a real home: what it writes is in the state database
/// and reported back, what it deals and lays out comes from the deck.
@Suite(.timeLimit(.minutes(2)))
struct LiveServicesTests {
  @Test func aWriteIsCommittedAndReportedBackWithItsHistoryRow() async throws {
    let home = try LiveHome()
    let f1 = try home.card("f1")
    let j1 = try home.card("j1")
    home.services.write(
      Session.Write(change: StateChange(shown: [ShownRecord(f1, shownAt: 5)], time: 5), sequence: 1)
    )
    home.services.write(
      Session.Write(change: StateChange(shown: [ShownRecord(j1, shownAt: 6)], time: 6), sequence: 2)
    )
    #expect(
      await home.reports(count: 2) == [.committed(1, indices: [0]), .committed(2, indices: [1])])
    #expect(home.services.takeReports() == [], "each report is taken once")
    #expect(
      try home.launch.state.history(limit: 10) == [
        HistoryEntry(index: 1, cardID: "j1", type: "joke", title: "Title of j1", shownAt: 6),
        HistoryEntry(index: 0, cardID: "f1", type: "fact", title: "Title of f1", shownAt: 5),
      ])
    #expect(home.services.historyCount() == 2)
    #expect(
      home.services.history(limit: 10, matching: "j1", reaction: nil).entries.map(\.cardID)
        == ["j1"])
  }

  @Test func aSwipeAndItsUndoAreTheRowsTheWritesAskFor() async throws {
    let home = try LiveHome()
    let f1 = try home.card("f1")
    let tombstone = Tombstone(historyIndex: 0, cardID: "f1", type: "fact", direction: .left)
    let changes = [
      StateChange(shown: [ShownRecord(f1, shownAt: 5)], time: 5),
      StateChange(effects: [.entomb(tombstone)], time: 6),
    ]
    for (sequence, change) in zip(1..., changes) {
      home.services.write(Session.Write(change: change, sequence: UInt64(sequence)))
    }
    #expect(
      await home.reports(count: 2) == [.committed(1, indices: [0]), .committed(2, indices: [])])
    #expect(try home.launch.state.tombstones() == [tombstone])
    #expect(try home.launch.state.history(limit: 1).first?.reaction == .tifb)

    home.services.write(
      Session.Write(change: StateChange(effects: [.restore(tombstone)], time: 7), sequence: 3))
    #expect(await home.reports(count: 1) == [.committed(3, indices: [])])
    #expect(try home.launch.state.tombstones() == [])
    #expect(try home.launch.state.history(limit: 1).first?.reaction == nil)
  }

  @Test func theFeedDealsACardOfTheDeckLaidOutForTheArea() async throws {
    let home = try LiveHome()
    let dealt = try #require(await home.cardFromFeed() as PreparedCard?)
    let card = try home.card(dealt.card.id)
    #expect(dealt == Preparation.laidOut(card, for: LiveHome.area, mark: .ellipsis))
    #expect(Set(home.services.typeStatuses().map(\.type.name)) == ["fact", "joke"])
    #expect(home.services.enabledTypes() == ["fact", "joke"])
  }

  @Test func anUndoCardIsLaidOutAgainForTheAreaOfNow() async throws {
    let home = try LiveHome()
    let j1 = try home.card("j1")
    #expect(
      home.services.card(id: "j1") == Preparation.laidOut(j1, for: LiveHome.area))
    let narrow = TextArea(width: 12, height: 6)
    home.services.resize(textArea: narrow)
    let again = try #require(home.services.card(id: "j1"))
    #expect(again == Preparation.laidOut(j1, for: narrow))
    #expect(again.layout.truncated && again.layout.lines.count == 6)
    #expect(home.services.card(id: "gone") == nil, "a card no deck holds")
  }

  @Test func aTypeTheMachineTurnsOffIsDealtNoMoreAndStored() async throws {
    let home = try LiveHome()
    var machine = AppMachine(
      screen: AppState(width: 80, height: 24), session: Session(window: home.window),
      disabledTypes: home.services.disabledTypes())
    #expect(home.services.disabledTypes() == [])
    #expect(home.services.storedSettings() == nil, "nothing written since the runner began")

    // The settings screen's switch, confirmed: the feed deals facts only.
    let asked = machine.reduce(
      .enabledTypes(home.services.enabledTypes(), type: "joke", enabled: false, confirmed: true),
      now: 2)
    #expect(asked == [.enableTypes(["fact"])])
    let statuses = home.services.enable(["fact"])
    #expect(
      Dictionary(uniqueKeysWithValues: statuses.map { ($0.type.name, $0.enabled) }) == [
        "fact": true, "joke": false,
      ])
    #expect(home.services.enabledTypes() == ["fact"])
    _ = machine.reduce(.app(.settingChanged(.applied(statuses))), now: 2)

    // Its write, once the frame is drawn: the setting is stored.
    let writes = machine.reduce(.frameDrawn, now: 2).compactMap { effect -> Session.Write? in
      guard case .write(let write) = effect else { return nil }
      return write
    }
    #expect(writes.map(\.change.enabled) == [["joke": false]])
    for write in writes { home.services.write(write) }
    #expect(
      await home.reports(count: writes.count) == writes.map { .committed($0.sequence, indices: []) }
    )
    #expect(try home.launch.state.disabledTypes() == ["joke"])
    #expect(home.services.disabledTypes() == ["joke"])

    // The database changed: its settings are told once.
    let stored = try #require(home.services.storedSettings())
    #expect(stored.disabled == ["joke"] && stored.types == ["fact", "joke"])
    #expect(stored.enabledNow == ["fact"])
    #expect(home.services.storedSettings() == nil)
    for _ in 0..<3 {
      #expect(await home.cardFromFeed()?.card.type == "fact")
    }
  }
}
