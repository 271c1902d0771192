import CTFOWire
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The routes an operator's tools ask, without a token: `/healthz` (the process answers),
/// `/readyz` (the store answers too) and `/metrics` (`ServerMetrics`, Prometheus's text format).
enum OperatorRoutes {
  /// `clock`: the wall clock in milliseconds, by which a health check is a second old.
  static func add(
    to router: Router<CTFOContext>, store: any CardStore, metrics: ServerMetrics,
    clock: @escaping @Sendable () -> Int64
  ) {
    let ready = ready(store: store, metrics: metrics, clock: clock)
    // HEAD is GET without the body (`HeadWithoutBody` drops it), as a monitor may ask.
    for method in [HTTPRequest.Method.get, .head] {
      router.on("/healthz", method: method) { _, _ in plain("ok\n") }
      router.on("/readyz", method: method, use: ready)
      router.on("/metrics", method: method) { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
          status: .ok, headers: headers,
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
      }
    }
  }

  private static func ready(
    store: any CardStore, metrics: ServerMetrics, clock: @escaping @Sendable () -> Int64
  ) -> @Sendable (Request, CTFOContext) async throws -> Response {
    let readiness = Readiness(store: store, clock: clock)
    let throttle = LogThrottle()
    return { _, context in
      if let error = await readiness.problem() {
        metrics.storeErrors.increment()
        if throttle.admit() != nil { context.logger.error("the store does not answer: \(error)") }
        throw APIFailure(
          .serviceUnavailable, code: "not_ready", message: "the store does not answer",
          retryAfter: 5)
      }
      return plain("ready\n")
    }
  }

  private static func plain(_ text: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(
      status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}

extension CardStore {
  /// Throws unless the store answers a query (the one every pull asks first) and, for a
  /// store in a file, its disk has room for the writes requests make.
  func answers() async throws {
    _ = try await revision(install: nil, feed: .recent)
    try (self as? SQLiteCardStore)?.checkRoom()
  }
}

/// Whether the store answers, from the last health check: a check less than a second old
/// (by `clock`) is the answer; else one check is made, which every `/readyz` meanwhile awaits,
/// and which ends by its deadline. A thousand `/readyz` at once cost the store one query, and
/// a store that hangs holds none of them past the deadline.
final class Readiness: Sendable {
  private struct State {
    var problem: String?
    var checkedAt: Int64?
    var running: Task<String?, Never>?
  }
  private let store: any CardStore
  private let clock: @Sendable () -> Int64
  private let deadline: Duration
  private let state = Mutex(State())

  init(
    store: any CardStore, clock: @escaping @Sendable () -> Int64,
    deadline: Duration = .seconds(2)
  ) {
    self.store = store
    self.clock = clock
    self.deadline = deadline
  }

  /// Nil when the store answered the last check; else why it did not.
  func problem() async -> String? {
    let now = clock()
    let check = state.withLock { state -> Task<String?, Never>? in
      if let checkedAt = state.checkedAt, (0..<1000).contains(now - checkedAt) { return nil }
      if let running = state.running { return running }
      let running = Task { await self.check() }
      state.running = running
      return running
    }
    guard let check else { return state.withLock { $0.problem } }
    return await check.value
  }

  private func check() async -> String? {
    var problem: String?
    do {
      try await withDeadline(deadline) { try await self.store.answers() }
    } catch {
      problem = "\(error)"
    }
    let now = clock()
    state.withLock { state in
      state.problem = problem
      state.checkedAt = now
      state.running = nil
    }
    return problem
  }
}

/// `operation`, or `DeadlinePassed` when it has not ended within `limit` (it is cancelled,
/// and not waited for: a call that ignores cancellation holds no caller past the deadline).
func withDeadline<T: Sendable>(
  _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let work = Task { try await operation() }
  return try await withCheckedThrowingContinuation { continuation in
    let waiting = Waiting(continuation)
    let timer = Task {
      try? await Task.sleep(for: limit)
      guard let waiting = waiting.take() else { return }
      work.cancel()
      waiting.resume(throwing: DeadlinePassed(limit: limit))
    }
    Task {
      let result = await work.result
      timer.cancel()
      waiting.take()?.resume(with: result)
    }
  }
}

/// A continuation resumed once, by whichever of two tasks comes first.
private final class Waiting<T: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<T, any Error>?>
  init(_ continuation: CheckedContinuation<T, any Error>) {
    self.continuation = Mutex(continuation)
  }
  func take() -> CheckedContinuation<T, any Error>? { continuation.withLock { $0.take() } }
}

/// What `withDeadline` throws.
struct DeadlinePassed: Error, CustomStringConvertible {
  var limit: Duration
  var description: String { "no answer within \(limit)" }
}
