import Dispatch
import FeedCore
import Store
import Synchronization
import Testing

@Suite struct StateWriterTests {
  /// `waitUntilIdle()` with a time limit: the sequences still queued, nil after 30 s.
  private func settled(_ writer: StateWriter) -> [UInt64]? {
    let queued = Mutex<[UInt64]?>(nil)
    let group = DispatchGroup()
    DispatchQueue(label: "settle").async(group: group) {
      let left = writer.waitUntilIdle()
      queued.withLock { $0 = left }
    }
    guard group.wait(timeout: .now() + 30) == .success else { return nil }
    return queued.withLock { $0 }
  }

  private func shown(_ id: String) -> StateChange {
    StateChange(shown: [ShownRecord(cardID: id, type: "fact", title: nil, shownAt: 0)], time: 0)
  }

  @Test func commitsInOrderAndReportsTheIndicesAfterEachCommit() throws {
    let home = try TestHome()
    let state = home.state
    let committed = Mutex<[(sequence: UInt64, indices: [Int], newest: Int)]>([])
    let writer = StateWriter(
      store: state,
      onCommitted: { sequence, indices in
        let newest = (try? state.history(limit: 1).first?.index) ?? -1
        committed.withLock { $0.append((sequence, indices, newest)) }
      })
    var sequences: [UInt64] = []
    for index in 0..<200 { sequences.append(writer.enqueue(shown("c\(index)"))) }
    #expect(settled(writer) == [])
    #expect(sequences == Array(1...200))
    let calls = committed.withLock { $0 }
    #expect(calls.map(\.sequence) == Array(1...200))
    #expect(calls.map(\.indices) == (0..<200).map { [$0] })
    // When the callback for change n runs, its row (index n - 1) is already readable.
    #expect(calls.allSatisfy { $0.newest >= Int($0.sequence) - 1 })
    #expect(try state.history(limit: 1).first?.cardID == "c199")
  }

  @Test func aFailedChangeStaysQueuedAndHoldsBackLaterOnesUntilRetried() throws {
    let home = try TestHome()
    let failed = Mutex<[UInt64]>([])
    let committed = Mutex<[UInt64]>([])
    let writer = StateWriter(
      store: home.state, onCommitted: { s, _ in committed.withLock { $0.append(s) } },
      onFailed: { s, _ in failed.withLock { $0.append(s) } })
    let tombstone = Tombstone(historyIndex: 0, cardID: "a", type: "fact", direction: .right)
    writer.enqueue(StateChange(effects: [.entomb(tombstone)], time: 0))
    // A second tombstone for one history row breaks the table's UNIQUE constraint.
    writer.enqueue(StateChange(effects: [.entomb(tombstone)], time: 0))
    writer.enqueue(StateChange(enabled: ["joke": false], time: 0))
    #expect(settled(writer) == [2, 3])
    #expect(failed.withLock { $0 } == [2])
    #expect(committed.withLock { $0 } == [1])
    #expect(try home.state.disabledTypes().isEmpty, "nothing after the failure was written")

    try home.state.apply(StateChange(effects: [.discard(tombstone)], time: 0))
    writer.retry()
    #expect(settled(writer) == [])
    #expect(committed.withLock { $0 } == [1, 2, 3])
    #expect(failed.withLock { $0 } == [2])
    #expect(try home.state.disabledTypes() == ["joke"])
  }

  /// A card shown while writes failed is known by `-sequence` of the change that holds its
  /// row; a later change's tombstone and return queue name it so, and the writer writes them
  /// against the row's number (as after a full disk).
  @Test func aProvisionalNumberIsWrittenAsTheRowsNumber() throws {
    let home = try TestHome()
    let writer = StateWriter(store: home.state)
    try home.state.append([ShownRecord(cardID: "old", type: "fact", title: nil, shownAt: 0)])
    let sequence = writer.enqueue(shown("a"))
    let provisional = Tombstone(
      historyIndex: -Int(sequence), cardID: "a", type: "fact", direction: .up)
    writer.enqueue(
      StateChange(
        effects: [.entomb(provisional)], returning: ReturnQueue(waiting: [-Int(sequence)]),
        time: 0))
    #expect(settled(writer) == [])
    #expect(try home.state.tombstones().map(\.historyIndex) == [1])
    #expect(try home.state.returning().map(\.index) == [1])
  }
}
