import Dispatch
import Foundation
import FeedCore
import Store
import Synchronization
import TestFixtures
import Testing

/// Two `StateDatabase`s on one file, as the app and `ctfo next` in two processes have.
@Suite struct TwoProcessTests {
  /// Runs `bodies` on threads of their own at once; false when they did not end in a minute.
  /// (Serial queues of their own: the global queue may run them one after the other.)
  private func runTogether(_ bodies: [@Sendable () -> Void]) -> Bool {
    let group = DispatchGroup()
    for (n, body) in bodies.enumerated() {
      DispatchQueue(label: "process-\(n)").async(group: group, execute: body)
    }
    return group.wait(timeout: .now() + 60) == .success
  }

  /// The sqlite3 shell's answer to `query` on `path`: another process's view of the file.
  private func shell(_ path: String, _ query: String) throws -> String {
    try Tool.output("/usr/bin/sqlite3", [path, query])
  }

  /// Opening a second `StateDatabase` on the file in one process (as `ctfo-bench` and the tests
  /// do, and the app's analytics sinks once did) must not touch the file's descriptors: closing any descriptor of a file
  /// drops every POSIX lock the process holds on it, so another process's sqlite3, finding
  /// itself the last, checkpointed and deleted the WAL that this process went on writing to.
  /// Its later commits were then seen by this process alone, and lost.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
  func aSecondDatabaseInOneProcessKeepsTheFirstsLocks() throws {
    let home = try TestHome()
    let shown = { (n: Int) in
      StateChange(
        shown: [ShownRecord(cardID: "c\(n)", type: "fact", title: nil, shownAt: Double(n))],
        time: Double(n))
    }
    _ = try home.state.apply(shown(0))
    let second = try StateDatabase(path: home.database.path)
    #expect(try shell(home.database.path, "SELECT COUNT(*) FROM history") == "1")
    _ = try home.state.apply(shown(1))
    _ = try StateStore(database: second).apply(shown(2))
    #expect(
      try shell(home.database.path, "SELECT COUNT(*) FROM history") == "3",
      "another process sees every commit")
    #expect(try home.state.history(limit: 10).count == 3)
  }

  @Test func interleavedSwipesAllCommitWithDenseUniqueIndices() throws {
    let home = try TestHome()
    let stores = [home.state, StateStore(database: try StateDatabase(path: home.database.path))]
    let assigned = Mutex<[String: Int]>([:])
    let failures = Mutex<[String]>([])
    let swipes = 150
    let finished = runTogether(
      stores.enumerated().map { process, store in
        {
          var previous: (id: String, index: Int)?
          for n in 0..<swipes {
            let id = "p\(process)-\(n)"
            let effects = previous.map {
              [
                UndoEffect.entomb(
                  Tombstone(historyIndex: $0.index, cardID: $0.id, type: "fact", direction: .right))
              ]
            }
            let shown = ShownRecord(cardID: id, type: "fact", title: nil, shownAt: Double(n))
            do {
              let indices = try store.apply(
                StateChange(effects: effects ?? [], shown: [shown], time: Double(n)))
              assigned.withLock { $0[id] = indices.first }
              previous = indices.first.map { (id, $0) }
            } catch {
              failures.withLock { $0.append("\(id): \(error)") }
            }
          }
        }
      })
    #expect(finished)
    #expect(failures.withLock { $0 } == [])
    let byID = assigned.withLock { $0 }
    #expect(byID.count == 2 * swipes)
    #expect(Set(byID.values) == Set(0..<2 * swipes), "unique and dense")
    let history = try home.state.history(limit: 1_000)
    #expect(history.count == 2 * swipes)
    #expect(history.allSatisfy { byID[$0.cardID] == $0.index })
    #expect(history.filter { $0.reaction == .tfu }.count == 2 * (swipes - 1))
    #expect(try home.state.tombstones().count == 2 * (swipes - 1))
  }

  @Test func twoLaunchesSyncingTheSameNewDecksImportEachOnce() throws {
    let home = try TestHome()
    let decks = try (0..<3).map { d in
      try home.deck("\(d).jsonl", (0..<3_000).map { cardLine("d\(d)-\($0)", type: "t\($0 % 2)") })
    }
    let indexes = [home.index, DeckIndex(database: try StateDatabase(path: home.database.path))]
    let reports = Mutex<[SyncReport]>([])
    let failures = Mutex<[String]>([])
    let finished = runTogether(
      indexes.map { index in
        {
          do {
            let report = try index.sync(decks: decks)
            reports.withLock { $0.append(report) }
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
      })
    #expect(finished)
    #expect(failures.withLock { $0 } == [])
    #expect(reports.withLock { $0.flatMap(\.indexed) } == decks, "each deck imported once")
    #expect(try home.index.catalog().map(\.cards) == [4_500, 4_500])
    #expect(try home.database.integrityCheck() == "ok")
  }
}
