import Synchronization

/// Tokens found valid, by their hash in hex: the install and the expiry, each taken for a
/// second after it was checked, so a client's requests in that second cost no query; a token
/// revoked in the store by another process is refused a second later at most.
final class KnownTokens: Sendable {
  private let known = Mutex<[String: (install: String, expiresAt: Int64, checkedAt: Int64)]>(
    [:])

  /// The install of the token `key` if it was found valid less than a second before `time`
  /// (milliseconds) and has not expired at `time`.
  func install(_ key: String, at time: Int64) -> String? {
    guard let kept = known.withLock({ $0[key] }), kept.expiresAt > time,
      (0..<1000).contains(time - kept.checkedAt)
    else { return nil }
    return kept.install
  }

  func remember(_ key: String, install: String, expiresAt: Int64, checkedAt time: Int64) {
    known.withLock { known in
      if known.count >= 100_000 { known.removeAll(keepingCapacity: true) }
      known[key] = (install, expiresAt, time)
    }
  }

  /// Forgets the tokens this process revoked.
  func forget(_ keys: [String]) {
    known.withLock { known in
      for key in keys { known[key] = nil }
    }
  }
}
