import Hummingbird
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

/// What every route that takes a body shares: the upload memory, split between callers the
/// server knows (a valid token or the sink's credentials) and the others, who get a small share
/// (an unauthenticated flood cannot hold what clients' uploads need); and two work gates, bulk
/// bodies in one and small ones (auths, single events) in the other, so that an auth never
/// waits behind a flood of batches.
struct Uploads: Sendable {
  let known: UploadBudget
  let anonymous: UploadBudget
  let bulk: WorkGate
  let light: WorkGate
  let deadline: Duration
  /// The bodies of callers not known held at once, by client address.
  let held: HeldByAddress
  /// What names a request's client address (a trusted proxy's `X-Forwarded-For`).
  let limits: Limits

  /// The largest body that goes through the light gate.
  static let lightBody = 64 << 10
  /// The bodies one client address not known may have read at once: its share of the small
  /// share, so that one address cannot hold every other stranger's auth.
  static let anonymousPerAddress = 8

  init(settings: ServerSettings, limits: Limits) {
    self.limits = limits
    held = HeldByAddress(limit: Self.anonymousPerAddress)
    known = UploadBudget(capacity: settings.uploadMemory)
    anonymous = UploadBudget(capacity: max(settings.uploadMemory / 8, 64 << 10))
    bulk = WorkGate(width: settings.concurrentUploads)
    light = WorkGate(width: settings.concurrentUploads)
    deadline = settings.bodyDeadline
  }

  /// The limits of a route whose bodies are at most `largest` bytes; `identify` names the
  /// caller before a byte of the body is taken (nil: not known), or refuses it (`401`, `429`).
  func limits(
    largest: Int,
    identify: (@Sendable (Request, CTFOContext) async throws -> String?)? = nil
  ) -> UploadLimits {
    UploadLimits(uploads: self, largest: largest, identify: identify)
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

/// Counts what each key holds at once, up to `limit`.
final class HeldByAddress: Sendable {
  private let limit: Int
  private let counts = Mutex<[String: Int]>([:])

  init(limit: Int) { self.limit = limit }

  /// Takes one for `key`; false (and nothing taken) when it holds `limit` already.
  func enter(_ key: String) -> Bool {
    counts.withLock { counts in
      let count = counts[key, default: 0]
      guard count < limit else { return false }
      counts[key] = count + 1
      return true
    }
  }

  func leave(_ key: String) {
    counts.withLock { counts in
      let count = counts[key, default: 1] - 1
      counts[key] = count > 0 ? count : nil
    }
  }
}
