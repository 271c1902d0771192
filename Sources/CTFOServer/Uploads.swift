import Hummingbird
import NIOCore
import Synchronization

/// The bytes of request bodies held at once, across every request: past it, an upload is
/// answered `503` before it is read, so clients holding large bodies cannot exhaust memory.
final class UploadBudget: Sendable {
  let capacity: Int
  private let used = Mutex(0)

  init(capacity: Int) { self.capacity = capacity }

  /// Takes `bytes` from the budget; false (and nothing taken) when they do not fit.
  func reserve(_ bytes: Int) -> Bool {
    used.withLock { used in
      guard bytes <= capacity - used else { return false }
      used += bytes
      return true
    }
  }

  func release(_ bytes: Int) { used.withLock { $0 -= bytes } }
}

/// Lets `width` tasks run at once and queues the others in order: the routes that parse and
/// store a body take one, so a flood of large uploads leaves a thread to light requests.
final class WorkGate: Sendable {
  private struct State {
    var free: Int
    var waiting: [CheckedContinuation<Void, Never>] = []
  }
  private let state: Mutex<State>

  init(width: Int) { state = Mutex(State(free: max(1, width))) }

  func run<T>(_ work: () async throws -> T) async throws -> T {
    await enter()
    defer { leave() }
    return try await work()
  }

  private func enter() async {
    await withCheckedContinuation { continuation in
      let admitted = state.withLock { state in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if admitted { continuation.resume() }
    }
  }

  private func leave() {
    let next = state.withLock { state in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil as CheckedContinuation<Void, Never>?
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}

/// Reads every request body before its route runs: within `deadline`, within the route
/// limit `largest`, and within the shared `budget`; then lets the route run through `gate`.
/// A body refused or cut short is not read further (its connection's input is closed), and
/// a client that leaves mid-body gets `400`, not an error in the log.
struct UploadLimits: RouterMiddleware {
  let budget: UploadBudget
  let gate: WorkGate
  let largest: Int
  let deadline: Duration

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    guard declared.map({ $0 > 0 }) ?? (request.headers[.transferEncoding] != nil) else {
      return try await next(request, context)
    }
    let channel = context.channel
    if let declared, declared > largest {
      channel.close(mode: .input, promise: nil)
      throw APIFailure.tooLarge(largest)
    }
    let late = Flag()
    let timer = channel.eventLoop.scheduleTask(in: TimeAmount(deadline)) {
      late.raise()
      channel.close(mode: .input, promise: nil)
    }
    defer { timer.cancel() }
    var held = 0
    defer { budget.release(held) }
    var body = ByteBuffer()
    do {
      // A declared length is taken from the budget before a byte is read.
      if let declared {
        guard budget.reserve(declared) else { throw APIFailure.busy }
        held = declared
        body.reserveCapacity(declared)
      }
      for try await chunk in request.body {
        let size = body.readableBytes + chunk.readableBytes
        guard size <= largest else { throw APIFailure.tooLarge(largest) }
        if size > held {
          guard budget.reserve(size - held) else { throw APIFailure.busy }
          held = size
        }
        var chunk = chunk
        body.writeBuffer(&chunk)
      }
      guard declared.map({ $0 == body.readableBytes }) ?? true else { throw Incomplete() }
    } catch {
      channel.close(mode: .input, promise: nil)
      if late.isRaised {
        throw APIFailure(
          .requestTimeout, code: "too_slow", message: "the body did not arrive in time")
      }
      if let failure = error as? APIFailure { throw failure }
      throw APIFailure(.badRequest, code: "incomplete", message: "the body ended early")
    }
    timer.cancel()
    var read = request
    read.body = RequestBody(buffer: body)
    return try await gate.run { try await next(read, context) }
  }

  /// The stream ended before the declared length.
  private struct Incomplete: Error {}

  /// Set once, by the deadline's timer.
  private final class Flag: Sendable {
    private let value = Atomic(false)
    var isRaised: Bool { value.load(ordering: .acquiring) }
    func raise() { value.store(true, ordering: .releasing) }
  }
}

extension APIFailure {
  /// The server holds as many bodies as it takes at once.
  static let busy = APIFailure(
    .serviceUnavailable, code: "busy", message: "too many uploads at once", retryAfter: 1)

  static func tooLarge(_ limit: Int) -> APIFailure {
    APIFailure(.contentTooLarge, code: "too_large", message: "the body is over \(limit) bytes")
  }
}
