import Dispatch
import FeedCore
import Foundation
import Store
import Synchronization

/// `ctfo-bench swipe-loop HOME N`: swipes N cards through a `StateWriter` the way the UI
/// does (the next card is "drawn" only once its history row is committed, which tells its
/// index) and prints `drawn INDEX` for each, for the SIGKILL test in
/// `scripts/store-kill-test.sh`.
enum SwipeLoop {
  static func run(home: String, swipes: Int) throws {
    let state = StateStore(database: try StateDatabase(path: home + "/state/ctfo.sqlite"))
    var (window, _) = try state.launchUndo(configuration: UndoConfiguration(), time: now())
    let committed = DispatchSemaphore(value: 0)
    let drawn = Mutex(-1)
    let writer = StateWriter(
      store: state,
      onCommitted: { _, indices in
        drawn.withLock { $0 = indices.first ?? $0 }
        committed.signal()
      },
      onFailed: { _, error in
        FileHandle.standardError.write(Data("swipe-loop: \(error)\n".utf8))
        exit(1)
      })
    writer.enqueue(StateChange(shown: [shown(0)], time: now()))
    for n in 0..<swipes {
      committed.wait()
      let index = drawn.withLock { $0 }
      FileHandle.standardOutput.write(Data("drawn \(index)\n".utf8))
      let tombstone = Tombstone(
        historyIndex: index, cardID: "card-\(n)", type: "fact", direction: .right)
      writer.enqueue(
        StateChange(effects: window.swipe(tombstone), shown: [shown(n + 1)], time: now()))
    }
    writer.waitUntilIdle()
  }

  private static func shown(_ n: Int) -> ShownRecord {
    ShownRecord(cardID: "card-\(n)", type: "fact", title: nil, shownAt: now())
  }

  private static func now() -> Double { Date().timeIntervalSince1970 }
}
