import Foundation
import Hummingbird
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The test fault switch: answers, delays and broken connections that a test scripts, and a log
/// of every request, so that tests run the real server, not a mock, through every failure.
///
/// Only `ctfo-server serve --test-faults` (or `ServerSettings.testFaults`) has one; without it
/// the `/_test/` routes answer 404 and no rule can exist.
///
/// - `PUT /_test/faults` `{"rules":[Rule]}` replaces the rules; `DELETE /_test/faults` clears them.
/// - `GET /_test/requests` gives `{"total","byPath","maxInFlight","inFlight","requests":[...]}` since the
///   start or the last `DELETE /_test/requests`; the `/_test/` routes are not counted.
public final class Faults: Sendable {
  /// One scripted fault. `path` matches as a prefix; the first matching rule applies; `times`
  /// (nil: every time) counts its uses.
  public struct Rule: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
      /// After `delayMs`, answer `status` (JSON error shape, `Retry-After`, `Location`); with
      /// no status, run the real route after the delay.
      case answer
      /// Close the connection with a reset (SO_LINGER 0), without an answer.
      case reset
      /// Run the real route (its changes commit), then close without an answer.
      case closeAfterCommit
    }

    public var method: String?
    public var path: String
    public var status: Int?
    public var retryAfter: Int?
    public var delayMs: Int?
    public var action: Action?
    public var location: String?
    public var times: Int?

    public init(
      method: String? = nil, path: String, status: Int? = nil, retryAfter: Int? = nil,
      delayMs: Int? = nil, action: Action? = nil, location: String? = nil, times: Int? = nil
    ) {
      self.method = method
      self.path = path
      self.status = status
      self.retryAfter = retryAfter
      self.delayMs = delayMs
      self.action = action
      self.location = location
      self.times = times
    }
  }

  /// A request as the log keeps it.
  public struct Seen: Codable, Sendable, Equatable {
    public var method: String
    public var path: String
    public var query: String
    public var authorization: Bool
  }

  /// What `GET /_test/requests` answers.
  public struct Log: Codable, Sendable, Equatable {
    public var total = 0
    public var byPath: [String: Int] = [:]
    public var maxInFlight = 0
    /// Requests begun and not yet answered, now.
    public var inFlight = 0
    public var requests: [Seen] = []
  }

  private struct State {
    var rules: [Rule] = []
    var log = Log()
    var inFlight = 0
  }

  private let state = Mutex(State())

  public init() {}

  public func set(_ rules: [Rule]) { state.withLock { $0.rules = rules } }

  public var log: Log {
    state.withLock { state in
      var log = state.log
      log.inFlight = state.inFlight
      return log
    }
  }

  public func clearLog() { state.withLock { $0.log = Log() } }

  /// Logs a request's start and takes the rule for it, if any.
  func begin(_ request: Request) -> Rule? {
    let path = request.uri.path
    let method = request.method.rawValue
    return state.withLock { state in
      state.inFlight += 1
      state.log.total += 1
      state.log.byPath[path, default: 0] += 1
      state.log.maxInFlight = max(state.log.maxInFlight, state.inFlight)
      if state.log.requests.count < 100_000 {
        state.log.requests.append(
          Seen(
            method: method, path: path, query: request.uri.query ?? "",
            authorization: request.headers[.authorization] != nil))
      }
      guard
        let index = state.rules.firstIndex(where: {
          path.hasPrefix($0.path) && ($0.method.map { $0.uppercased() == method } ?? true)
        })
      else { return nil }
      let rule = state.rules[index]
      if let times = rule.times {
        if times <= 1 {
          state.rules.remove(at: index)
        } else {
          state.rules[index].times = times - 1
        }
      }
      return rule
    }
  }

  func end() { state.withLock { $0.inFlight -= 1 } }

  /// The `/_test/` routes.
  func addRoutes(to router: Router<CTFOContext>) {
    router.put("/_test/faults") { request, _ in
      let body = try await request.body.collect(upTo: 1 << 20)
      struct Rules: Decodable { var rules: [Rule] }
      guard let rules = try? JSONDecoder().decode(Rules.self, from: Data(buffer: body)) else {
        throw APIFailure(.badRequest, code: "bad_rules", message: "expected {\"rules\":[...]}")
      }
      self.set(rules.rules)
      return Response(status: .noContent)
    }
    router.delete("/_test/faults") { _, _ in
      self.set([])
      return Response(status: .noContent)
    }
    router.get("/_test/requests") { _, _ in try Routes.json(self.log) }
    router.delete("/_test/requests") { _, _ in
      self.clearLog()
      return Response(status: .noContent)
    }
  }
}
