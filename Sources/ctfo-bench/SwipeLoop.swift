import CardStore
import Dispatch
import FeedCore
import Foundation

/// `ctfo-bench swipe-loop HOME N`: swipes N cards through a `StateWriter` the way the UI
/// does (the next card is "drawn" only once its history row is committed) and prints
/// `drawn INDEX` for each, for the SIGKILL test in `scripts/kill-test.sh`.
enum SwipeLoop {
  static func run(home: String, swipes: Int) throws {
    let state = StateStore(database: try StateDatabase(path: home + "/state/ctfo.sqlite"))
    var (window, _) = try state.launchUndo(configuration: UndoConfiguration(), time: now())
    var index = try state.nextHistoryIndex()
    let committed = DispatchSemaphore(value: 0)
    let writer = StateWriter(store: state, onCommitted: { _ in committed.signal() })
    var shown = entry(index)
    writer.enqueue(StateChange(shown: [shown], time: now()))
    for _ in 0..<swipes {
      committed.wait()
      FileHandle.standardOutput.write(Data("drawn \(shown.index)\n".utf8))
      index += 1
      let tombstone = Tombstone(
        historyIndex: shown.index, cardID: shown.cardID, type: shown.type, direction: .right)
      shown = entry(index)
      writer.enqueue(StateChange(effects: window.swipe(tombstone), shown: [shown], time: now()))
    }
    writer.waitUntilIdle()
  }

  private static func entry(_ index: Int) -> HistoryEntry {
    HistoryEntry(index: index, cardID: "card-\(index)", type: "fact", title: nil, shownAt: now())
  }

  private static func now() -> Double { Date().timeIntervalSince1970 }
}
