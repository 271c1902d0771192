import CTFOClient
import CTFOProgram
import CTFOServer
import CTFOWire
import Dispatch
import Synchronization
import Testing

/// The running app's fetches of card bodies against the real server: one
/// request per card whatever the failure and however often it is asked for, and a deadline from
/// the request, so that a card waiting behind a server that hangs still gets its time.
@Suite(.timeLimit(.minutes(1)))
struct BodyFetchesTests {
  private func fetches(_ server: LiveServer, deadline: Duration) -> BodyFetches {
    let client = server.client()
    let session = Box(ServerSession(server: server.endpoint.description, installId: "i1"))
    return BodyFetches(thread: BackgroundThread(niceness: 0), deadline: deadline) { id, due in
      try client.card(id: id, session: &session.value, deadline: due).body ?? ""
    }
  }

  @Test func aCardThatFailsIsAskedOfTheServerOnce() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let bodies = fetches(server, deadline: .request)
    for _ in 0..<4 {
      await #expect(throws: APIError.self) { try await bodies.body(of: "missing") }
    }
    #expect(try await bodies.body(of: "c1") == "Body 1.")
    #expect(server.faults.log.byPath["/v1/cards/missing"] == 1)
  }

  /// A card the body precache asked for in vain is not asked for again when it is prepared,
  /// and the precache passes over a card whose fetch failed.
  @Test func aCardThePrecacheFailedOnIsNotAskedAgain() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let bodies = fetches(server, deadline: .request)
    bodies.failedElsewhere("c2")
    await #expect(throws: (any Error).self) { try await bodies.body(of: "c2") }
    await #expect(throws: APIError.self) { try await bodies.body(of: "missing") }
    #expect(bodies.failed == ["c2", "missing"])
    #expect(server.faults.log.byPath["/v1/cards/c2"] == nil)
  }

  /// The thread is held (a fetch that hangs) while five asks for four cards wait, longer
  /// than a deadline: each card is still requested when its turn comes, with its whole time
  /// from then (a card queued behind one that hangs is not dropped for waiting), and the two
  /// asks for one card share its answer.
  @Test func aCardsDeadlineRunsFromItsRequestNotFromItsAsk() {
    let thread = BackgroundThread(niceness: 0)
    let held = DispatchSemaphore(value: 0)
    thread.async { held.wait() }
    let shift = Mutex(Duration.zero)
    let requested = Mutex<[String: Duration]>([:])
    let start = ContinuousClock.now
    let later: @Sendable () -> ContinuousClock.Instant = { start + shift.withLock { $0 } }
    let bodies = BodyFetches(thread: thread, deadline: .seconds(2), now: later) { id, due in
      requested.withLock { $0[id, default: .zero] += due - start }
      return "Body of \(id)."
    }
    let answered = DispatchSemaphore(value: 0)
    let failures = Mutex(0)
    for id in ["c1", "c2", "c1", "c3", "c4"] {
      bodies.ask(id) { result in
        if case .failure = result { failures.withLock { $0 += 1 } }
        answered.signal()
      }
    }
    shift.withLock { $0 = .seconds(3) }
    held.signal()
    for _ in 0..<5 { #expect(answered.wait(timeout: .now() + 20) == .success) }
    #expect(failures.withLock { $0 } == 0)
    #expect(
      requested.withLock { $0 } == [
        "c1": .seconds(5), "c2": .seconds(5), "c3": .seconds(5), "c4": .seconds(5),
      ])
  }

  /// Failures are forgotten when a type gets a new round: the card is asked for again.
  @Test func aFailureForgottenIsAskedAgain() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let bodies = fetches(server, deadline: .request)
    await #expect(throws: APIError.self) { try await bodies.body(of: "missing") }
    bodies.forgetFailures()
    #expect(bodies.failed.isEmpty)
    await #expect(throws: APIError.self) { try await bodies.body(of: "missing") }
    #expect(server.faults.log.byPath["/v1/cards/missing"] == 2)
  }
}
