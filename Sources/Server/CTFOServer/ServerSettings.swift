import Foundation

/// The settings of a running server.
public struct ServerSettings: Sendable {
  /// How long a token is good for, in milliseconds (30 days).
  public var tokenLifetime: Int64 = 30 * 24 * 3600 * 1000
  /// A card whose body is longer (in bytes) goes in a pull without it: `GET /v1/cards/{id}`.
  public var pullBodyLimit = 4096
  /// Requests an install may make per minute before `429`, whatever its token; and auths.
  public var requestsPerMinute = 600
  /// Requests one address may make per minute before `429`, whatever the install (nil: ten
  /// times `requestsPerMinute`, room for a household behind one address).
  public var requestsPerMinutePerAddress: Int?
  /// How long events are kept, in milliseconds; nil keeps them.
  public var eventsRetention: Int64?
  /// The Mixpanel project token `/import` takes as its basic-auth user; nil takes none.
  public var mixpanelToken: String?
  /// The `api_secret` `/mp/collect` keeps events for; nil keeps none.
  public var gaAPISecret: String?
  /// The wall clock in milliseconds since the epoch: token expiry, rate windows, pruning.
  public var clock: @Sendable () -> Int64 = { Clock.milliseconds() }
  /// The largest request body read (`POST /v1/auth`).
  public var requestBodyLimit = 16 * 1024
  /// The bytes of request bodies held at once, across all requests (past it: `503`).
  public var uploadMemory = 32 << 20
  /// How long a request body may take to arrive once its head has (past it: `408`).
  public var bodyDeadline = Duration.seconds(30)
  /// How long a connection may wait for its next request, or for the rest of a head.
  public var idleTimeout = Duration.seconds(30)
  /// Requests with a body parsed and stored at once: one core is left to the others.
  public var concurrentUploads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
  /// The test fault switch (`Faults`): tests only.
  public var testFaults = false
  /// The counters `/metrics` shows.
  public var metrics = ServerMetrics()
  /// The addresses of the reverse proxies in front of the server (`--trusted-proxy`): from
  /// them the client's address is taken from `X-Forwarded-For`.
  public var trustedProxies: Set<String> = []
  /// The SHA-256 of the token `/dashboard` asks for (`--admin-token-file`); nil: no one may
  /// see it.
  public var adminTokenHash: [UInt8]?

  public init() {}
}
