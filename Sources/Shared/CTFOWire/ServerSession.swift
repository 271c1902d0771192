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
  /// Server time minus this machine's, in milliseconds, measured at auth; within
  /// `offsetLimit`.
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

extension ServerSession {
  /// The largest clock offset taken from a server, a year either way: a server further off is
  /// wrong, and its times would overflow the sums made with them.
  public static let offsetLimit: Int64 = 365 * 86_400_000

  /// Whether `offset` is within `offsetLimit` either way.
  public static func isSane(offset: Int64) -> Bool {
    (-offsetLimit...offsetLimit).contains(offset)
  }

  /// The server's time when this machine's is `local`: an offset beyond `offsetLimit` (stored
  /// by an older version) counts as none, and the sum saturates instead of trapping.
  public static func serverTime(at local: Int64, offset: Int64) -> Int64 {
    guard isSane(offset: offset) else { return local }
    let (sum, overflow) = local.addingReportingOverflow(offset)
    return overflow ? (offset < 0 ? .min : .max) : sum
  }

  /// The longest token or cache key taken from a server.
  public static let headerValueLimit = 512

  /// Whether a token or cache key from the server can go into a request's header as it is:
  /// 1 to `headerValueLimit` bytes of visible ASCII, no `"` (a key is sent quoted). Others are
  /// refused when received, so that a bad one never stops every later request.
  public static func fitsHeader(_ value: String) -> Bool {
    (1...headerValueLimit).contains(value.utf8.count)
      && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }
  }

  /// The server's time when this machine's is `local`.
  public func serverTime(at local: Int64) -> Int64 {
    Self.serverTime(at: local, offset: clockOffset)
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
