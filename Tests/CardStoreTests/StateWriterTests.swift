import CardStore
import FeedCore
import Synchronization
import Testing

@Suite struct StateWriterTests {
  @Test func commitsInOrderAndCallsBackAfterEachCommit() throws {
    let home = try TestHome()
    let state = home.state
    let committed = Mutex<[(sequence: UInt64, rows: Int)]>([])
    let writer = StateWriter(
      store: state,
      onCommitted: { sequence in
        let rows = (try? state.nextHistoryIndex()) ?? -1
        committed.withLock { $0.append((sequence, rows)) }
      })
    var sequences: [UInt64] = []
    for index in 0..<200 {
      let entry = HistoryEntry(index: index, cardID: "c\(index)", type: "fact", title: nil, shownAt: 0)
      sequences.append(writer.enqueue(StateChange(shown: [entry], time: 0)))
    }
    writer.waitUntilIdle()
    #expect(sequences == Array(1...200))
    let calls = committed.withLock { $0 }
    #expect(calls.map(\.sequence) == Array(1...200))
    // When the callback for change n runs, its row (index n - 1) is already readable.
    #expect(calls.allSatisfy { $0.rows >= Int($0.sequence) })
    #expect(try state.history(limit: 1).first?.cardID == "c199")
  }

  @Test func aFailedChangeIsReportedAndLaterChangesStillCommit() throws {
    let home = try TestHome()
    let failed = Mutex<[UInt64]>([])
    let committed = Mutex<[UInt64]>([])
    let writer = StateWriter(
      store: home.state, onCommitted: { s in committed.withLock { $0.append(s) } },
      onFailed: { s, _ in failed.withLock { $0.append(s) } })
    let entry = HistoryEntry(index: 0, cardID: "a", type: "fact", title: nil, shownAt: 0)
    writer.enqueue(StateChange(shown: [entry], time: 0))
    writer.enqueue(StateChange(shown: [entry], time: 0))
    writer.enqueue(StateChange(enabled: ["joke": false], time: 0))
    writer.waitUntilIdle()
    #expect(failed.withLock { $0 } == [2])
    #expect(committed.withLock { $0 } == [1, 3])
    #expect(try home.state.disabledTypes() == ["joke"])
  }
}
