import Testing

@testable import CTFOServer

/// `withDeadline`: an operation that ends in time gives its own result, however soon it ends.
/// The timer was cancelled before the result was handed on, and a cancelled timer woke at once
/// and answered "no answer within 5 s" for a call that had answered (schemathesis on
/// PostgreSQL: a 503 for `/v1/cards/ID` the moment it was asked).
struct DeadlineTests {
  @Test func anOperationThatEndsInTimeIsNeverCalledLate() async throws {
    // Many at once, as a server's requests are: the race needs the timer's task to run
    // between the two steps of the result's.
    let late = await withTaskGroup(of: Int.self) { group in
      for round in 0..<20_000 {
        group.addTask {
          do {
            let value = try await withDeadline(.seconds(60)) { round }
            return value == round ? 0 : 1
          } catch {
            return 1
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(late == 0, "\(late) of 20,000 calls that ended at once were called late")
  }

  @Test func anOperationPastItsDeadlineIsCut() async throws {
    await #expect(throws: DeadlinePassed.self) {
      try await withDeadline(.milliseconds(20)) {
        try await Task.sleep(for: .seconds(30))
        return 1
      }
    }
  }
}
