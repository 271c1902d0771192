import Foundation
import Hummingbird

/// The rates the server keeps: per install (whichever token it holds), of auths per install,
/// and per address (whichever installs it makes). An install's requests are counted across the
/// server processes when the store counts them together (`SharedRates`); auths and addresses
/// by each process.
struct Limits: Sendable {
  let installs: RateLimiter
  let sharedInstalls: SharedRates?
  let auths: RateLimiter
  let addresses: RateLimiter
  /// Dashboard logins per client address: a guess of the admin token is as costly as it can
  /// be made.
  let logins: RateLimiter
  /// The proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
  let trustedProxies: Set<String>

  init(settings: ServerSettings, store: any RequestCountStore) {
    trustedProxies = settings.trustedProxies
    sharedInstalls =
      store.sharesRequestCounts
      ? SharedRates(perMinute: settings.requestsPerMinute, clock: settings.clock, store: store)
      : nil
    installs = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    auths = RateLimiter(perMinute: settings.requestsPerMinute, clock: settings.clock)
    addresses = RateLimiter(
      perMinute: settings.requestsPerMinutePerAddress ?? settings.requestsPerMinute * 10,
      clock: settings.clock)
    logins = RateLimiter(perMinute: Self.loginsPerMinute, clock: settings.clock)
  }

  /// `429` when the request's client address has used its minute.
  func charge(address request: Request, _ context: CTFOContext) throws {
    try charge(
      address: client(
        peer: context.channel.remoteAddress?.ipAddress ?? "",
        forwardedFor: request.headers[values: .xForwardedFor]))
  }

  /// The client's address: the peer's, or when the peer is a trusted proxy, the right-most
  /// address of `X-Forwarded-For` that is not one (those left of it are what the client
  /// said, and anyone may say anything).
  func client(peer: String, forwardedFor values: [String]) -> String {
    guard trustedProxies.contains(peer), !values.isEmpty else { return peer }
    var client = peer
    // At most the last few hops are read: a long header costs no more than a short one.
    var hops = 0
    for value in values.reversed() {
      for hop in value.split(separator: ",").reversed() {
        let address = hop.trimmingCharacters(in: .whitespaces)
        guard !address.isEmpty else { continue }
        client = address
        hops += 1
        if !trustedProxies.contains(address) || hops >= 16 { return client }
      }
    }
    return client
  }

  /// `429` when `address` has used its minute.
  func charge(address: String) throws {
    try charge(addresses, address)
  }

  /// `429` when `install` has used its minute.
  func charge(install: String) throws {
    guard let sharedInstalls else { return try charge(installs, install) }
    if let wait = sharedInstalls.admit(install) { throw APIFailure.rateLimited(retryAfter: wait) }
  }

  /// Dashboard logins a client address may try per minute.
  static let loginsPerMinute = 10

  /// `429` when the request's client address has used its minute of dashboard logins.
  func charge(login request: Request, _ context: CTFOContext) throws {
    try charge(
      logins,
      client(
        peer: context.channel.remoteAddress?.ipAddress ?? "",
        forwardedFor: request.headers[values: .xForwardedFor]))
  }

  /// `429` when `install` has used its minute of auths.
  func charge(authOf install: String) throws {
    try charge(auths, install)
  }

  private func charge(_ limiter: RateLimiter, _ key: String) throws {
    if let wait = limiter.admit(key) { throw APIFailure.rateLimited(retryAfter: wait) }
  }
}
