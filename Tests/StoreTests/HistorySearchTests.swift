import FeedCore
import Store
import Testing

/// `/` in the history view and `ctfo history --search`: the store finds the text in titles
/// and card bodies, in SQL, newest first.
@Suite struct HistorySearchTests {
  /// A home whose history shows, oldest first: a, b, c, d, and a again.
  private func home() throws -> TestHome {
    let home = try TestHome()
    let deck = try home.deck(
      "a.jsonl",
      [
        #"{"id": "a", "type": "fact", "title": "Grep Context", "body": "Lines around a match"}"#,
        #"{"id": "b", "type": "fact", "title": "Octopus", "body": "Three HEARTS pump blue blood"}"#,
        #"{"id": "c", "type": "word", "body": "100% cotton, 5_000 threads"}"#,
        #"{"id": "d", "type": "word", "title": "Café", "body": "Coffee"}"#,
      ])
    _ = try home.index.sync(decks: [deck])
    let titles = ["Grep Context", "Octopus", nil, "Café", "Grep Context"]
    try home.state.append(
      zip(["a", "b", "c", "d", "a"], titles).map {
        ShownRecord(cardID: $0, type: "fact", title: $1, shownAt: 1)
      })
    return home
  }

  private func found(_ home: TestHome, _ text: String, limit: Int = 10) throws -> [Int] {
    try home.state.history(limit: limit, matching: text).map(\.index)
  }

  @Test func findsTitlesAndBodiesIgnoringCaseNewestFirst() throws {
    let home = try home()
    #expect(try found(home, "grep") == [4, 0])
    #expect(try found(home, "hearts") == [1])
    #expect(try found(home, "COFFEE") == [3])
    #expect(try found(home, "grep", limit: 1) == [4])
    #expect(try found(home, "nowhere").isEmpty)
  }

  @Test func percentAndUnderscoreMatchOnlyThemselves() throws {
    let home = try home()
    #expect(try found(home, "%") == [2])
    #expect(try found(home, "5_0") == [2])
    #expect(try found(home, "_").count == 1)
    #expect(try found(home, #"\"#).isEmpty)
    #expect(try found(home, "'; DROP TABLE history; --").isEmpty)
    #expect(try home.state.historyCount() == 5)
  }

  @Test func aCardWaitingToComeBackIsNotFound() throws {
    let home = try home()
    try home.state.apply(StateChange(returning: ReturnQueue(waiting: [4]), time: 2))
    #expect(try found(home, "grep") == [0])
  }

  @Test func readsOnlyTheNewestRows() throws {
    let home = try home()
    let filler = ShownRecord(cardID: "z", type: "fact", title: "filler", shownAt: 1)
    try home.state.append(Array(repeating: filler, count: StateStore.searchDepth - 4))
    #expect(try found(home, "grep") == [4])
  }
}
