/// What the client keeps between runs for the server it talks to: the install id, the token,
/// the clock offset and a cache key per feed. The state database stores it (mode 0600), and
/// nothing prints the token.
public struct ServerSession: Sendable, Equatable {
  /// The server these credentials are for (`Endpoint.description`); a new server starts over.
  public var server: String
  /// A random UUID made once per state folder.
  public var installId: String
  public var token: String?
  /// When the token stops being valid, in server milliseconds.
  public var tokenExpiresAt: Int64?
  public var distinctId: String?
  /// Server time minus this machine's, in milliseconds, measured at auth.
  public var clockOffset: Int64
  /// The cache key of the snapshot held for each feed ("hot", "recent").
  public var cacheKeys: [String: String]

  public init(
    server: String, installId: String, token: String? = nil, tokenExpiresAt: Int64? = nil,
    distinctId: String? = nil, clockOffset: Int64 = 0, cacheKeys: [String: String] = [:]
  ) {
    self.server = server
    self.installId = installId
    self.token = token
    self.tokenExpiresAt = tokenExpiresAt
    self.distinctId = distinctId
    self.clockOffset = clockOffset
    self.cacheKeys = cacheKeys
  }
}

extension ServerSession: CustomStringConvertible {
  /// Never the token.
  public var description: String {
    "ServerSession(server: \(server), installId: \(installId), token: "
      + (token == nil ? "none" : "set") + ", cacheKeys: \(cacheKeys))"
  }
}

/// Which order the server gives a pull's cards in: by score, or by time of publication.
public enum PullFeed: String, Sendable, CaseIterable {
  case hot, recent
}
