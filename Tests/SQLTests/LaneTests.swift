import SQL
import Synchronization
import TestFixtures
import Testing

/// A lane: its connection opened on first use and again after `close`, entered again by the
/// thread that holds it (a call inside a transaction joins it), one thread at a time.
@Suite struct LaneTests {
  /// How many connections a lane opened.
  final class Opened: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
  }

  let folder: TemporaryFolder
  let path: String
  let opened = Opened()

  init() throws {
    folder = try TemporaryFolder("ctfo-sql")
    path = folder.path("lane.sqlite")
  }

  private func lane() -> Lane {
    let path = path
    return Lane(nil) { [opened] in
      opened.add()
      return try Connection(path: path, role: .writer)
    }
  }

  @Test func opensOnFirstUseAndAgainAfterClose() throws {
    let lane = lane()
    #expect(opened.value == 0)
    try lane.run { db in try db.execute("CREATE TABLE t (v INTEGER)") }
    try lane.run { db in try db.run("INSERT INTO t (v) VALUES (1)") }
    #expect(opened.value == 1)
    lane.close()
    #expect(try lane.run { db in try db.rows("SELECT v FROM t") { $0.integer(0) } } == [1])
    #expect(opened.value == 2)
  }

  @Test func theHolderEntersAgainInItsTransaction() throws {
    let lane = lane()
    #expect(!lane.isHeldByCurrentThread)
    try lane.run { db in
      try db.execute("CREATE TABLE t (v INTEGER)")
      try db.transaction(immediate: true) {
        #expect(lane.isHeldByCurrentThread)
        try lane.run { inner in
          #expect(inner === db)
          #expect(inner.isInTransaction)
          try inner.run("INSERT INTO t (v) VALUES (1)")
        }
      }
    }
    #expect(!lane.isHeldByCurrentThread)
    #expect(try lane.run { db in try db.rows("SELECT COUNT(*) FROM t") { $0.integer(0) } } == [1])
  }

  @Test func threadsTakeTheLaneInTurn() async throws {
    let lane = lane()
    try lane.run { db in try db.execute("CREATE TABLE t (v INTEGER)") }
    // Each insert reads the count and writes it back plus one: interleaved, two would
    // read the same count and the sum would fall short.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<50 {
            try lane.run { db in
              let count = try db.rows("SELECT COUNT(*) FROM t") { $0.integer(0) }.first ?? 0
              try db.run("INSERT INTO t (v) VALUES (?)", [.integer(count)])
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let values = try lane.run { db in try db.rows("SELECT v FROM t ORDER BY v") { $0.integer(0) } }
    #expect(values == (0..<400).map { Int64($0) })
  }
}
