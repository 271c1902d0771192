import CCourtesy
import Foundation
import SQL
import Testing

/// Every step of a SQLite statement is a yield point on a background thread (Courtesy): the
/// progress handler fires only inside statements of 1,000 instructions or more, and a pull's
/// chunk of short upserts held the CPU 6 ms without one.
@Suite struct YieldPointTests {
  @Test func aBackgroundThreadYieldsAtEachStepOfShortStatements() async throws {
    let (yields, statements) = try await withCheckedThrowingContinuation {
      (done: CheckedContinuation<(Int64, Int64), any Error>) in
      Thread {
        // A quantum of 1 ns: every yield point yields.
        ctfo_become_background(10, 1)
        do {
          let connection = try Connection(path: ":memory:", role: .writer)
          try connection.run("CREATE TABLE t (x INTEGER)")
          let before = ctfo_yields()
          for i in 0..<200 { try connection.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
          done.resume(returning: (ctfo_yields() - before, 200))
        } catch {
          done.resume(throwing: error)
        }
      }.start()
    }
    #expect(yields >= statements, "\(yields) yields for \(statements) statements")
  }

  @Test func aThreadThatIsNotBackgroundNeverYields() throws {
    let connection = try Connection(path: ":memory:", role: .writer)
    let before = ctfo_yields()
    for _ in 0..<50 { _ = try connection.rows("SELECT 1") { $0.integer(0) } }
    #expect(ctfo_yields() == before)
  }
}
