import CYieldToUser
import Foundation
import SQL
import Testing

/// Every step of a SQLite statement is a yield point on a background thread (Courtesy): the
/// progress handler fires only inside statements of 1,000 instructions or more, and a pull's
/// chunk of short upserts held the CPU too long without one.
@Suite struct YieldPointTests {
  @Test func aBackgroundThreadYieldsAtEachStepOfShortStatements() async throws {
    // A quantum of 1 ns: every yield point yields.
    let (yields, statements) = try await onThread(background: (niceness: 10, quantum: 1)) {
      let connection = try Connection(path: ":memory:", role: .writer)
      try connection.run("CREATE TABLE t (x INTEGER)")
      let before = ctfo_yields()
      for i in 0..<200 { try connection.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
      return (ctfo_yields() - before, Int64(200))
    }
    #expect(yields >= statements, "\(yields) yields for \(statements) statements")
  }

  @Test func aThreadThatIsNotBackgroundNeverYields() throws {
    let connection = try Connection(path: ":memory:", role: .writer)
    let before = ctfo_yields()
    for _ in 0..<50 { _ = try connection.rows("SELECT 1") { $0.integer(0) } }
    #expect(ctfo_yields() == before)
  }

  /// A checkpoint runs long with no yield point: a background thread's commit that passes
  /// SQLite's threshold of 1,000 WAL frames leaves it for `checkpointIfDue` (called after a
  /// pause in the keys), unless the WAL passes 4,000 frames; any other thread's commit
  /// checkpoints at once.
  @Test(arguments: [true, false])
  func aBackgroundCommitLeavesItsCheckpointForAPause(background: Bool) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-ckpt-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("db.sqlite").path
    let size: @Sendable () -> Int = {
      (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
    let sizes = try await onThread(background: background ? (0, 1_000_000_000) : nil) {
      let connection = try Connection(path: path, role: .writer)
      try connection.execute("PRAGMA journal_mode = WAL")
      try connection.run("CREATE TABLE t (x BLOB)")
      // 100 pages a transaction: the eleventh commit passes 1,000 frames.
      func commit(_ transactions: Int) throws {
        for _ in 0..<transactions {
          try connection.transaction(immediate: true) {
            for _ in 0..<100 { try connection.run("INSERT INTO t VALUES (zeroblob(4000))") }
          }
        }
      }
      try commit(12)
      let afterTheThreshold = size()
      connection.checkpointIfDue()
      let afterThePause = size()
      try commit(42)
      return [afterTheThreshold, afterThePause, size()]
    }
    if background {
      #expect(sizes[0] < 100_000, "the pages wait in the WAL: \(sizes)")
    } else {
      #expect(sizes[0] > 4_000_000, "checkpointed by the commit: \(sizes)")
    }
    #expect(sizes[1] > 4_000_000, "checkpointed by then: \(sizes)")
    // Past 4,000 frames even a background commit checkpoints.
    #expect(sizes[2] > 20_000_000, "\(sizes)")
  }

  /// Runs `body` on a thread of its own (a background one with `background`'s niceness and
  /// quantum in ns, when given): Courtesy's state is the thread's, so no test's pool thread
  /// keeps it.
  private func onThread<T: Sendable>(
    background: (niceness: Int32, quantum: Int64)?, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
      Thread {
        if let background { ctfo_become_background(background.niceness, background.quantum) }
        done.resume(with: Result { try body() })
      }.start()
    }
  }
}
