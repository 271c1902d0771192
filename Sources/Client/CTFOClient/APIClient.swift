import CTFOWire
import HTTP

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The client of the CTFO API: auth on first need, pulls with the cache key, whole card
/// bodies. Each call blocks its thread until the answer or the deadline; the caller runs it
/// off the terminal's thread, one call at a time (ctfo.md: at most one request in flight).
///
/// A `401` gets one new auth and one retry; redirects are errors, never followed.
///
///     let client = APIClient(transport: HTTPTransport(endpoint: server), device: device)
///     var session = ServerSession(server: server.description, installId: id)
///     switch try client.pull(.hot, session: &session, deadline: .now + .seconds(10)) { ... }
public struct APIClient: Sendable {
  public let transport: HTTPTransport
  public let device: Wire.AuthRequest.Device
  /// This machine's time in milliseconds since the epoch.
  public let now: @Sendable () -> Int64

  public init(
    transport: HTTPTransport, device: Wire.AuthRequest.Device,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds
  ) {
    self.transport = transport
    self.device = device
    self.now = now
  }

  /// What a pull found.
  public enum PullOutcome: Sendable, Equatable {
    /// `304`: the snapshot held is current.
    case unchanged
    /// The change since the snapshot held (everything when `full`).
    case changed(Wire.Pull)
  }

  /// Pulls `feed`, sending the cache key held for it; the session gets the new key only with
  /// the change it names (the caller stores both in one transaction). A key that cannot be
  /// sent, or that the server refuses (`400`), is dropped: the next pull is a full one.
  public func pull(
    _ feed: PullFeed, session: inout ServerSession, deadline: ContinuousClock.Instant
  ) throws(APIError) -> PullOutcome {
    // A pull is most of what the server sends, and its JSON shrinks to a third in gzip; the
    // transport inflates it within the same body limit.
    var headers: [(name: String, value: String)] = [("Accept-Encoding", "gzip")]
    if let key = session.cacheKeys[feed.rawValue] {
      if ServerSession.fitsHeader(key) {
        headers.append(("If-None-Match", "\"\(key)\""))
      } else {
        session.cacheKeys[feed.rawValue] = nil
      }
    }
    let answer: HTTPResponse
    do {
      answer = try authorized(
        HTTPRequest(path: "/v1/pull?feed=\(feed.rawValue)", headers: headers),
        session: &session, deadline: deadline)
    } catch {
      if case .refused(status: 400, _, _) = error { session.cacheKeys[feed.rawValue] = nil }
      throw error
    }
    if answer.status == 304 { return .unchanged }
    return .changed(try Self.take(pull: answer, of: feed, into: &session))
  }

  /// The pull of a `200` answer, its cache key kept in `session` when it can be sent back.
  static func take(pull answer: HTTPResponse, of feed: PullFeed, into session: inout ServerSession)
    throws(APIError) -> Wire.Pull
  {
    let pull = try decodePull(answer)
    session.cacheKeys[feed.rawValue] = ServerSession.fitsHeader(pull.cacheKey) ? pull.cacheKey : nil
    return pull
  }

  /// A card whole, for a card a pull sent without its body. Its answer is read, and inflated,
  /// up to `cardAnswerLimit` only: past it, the card could not be kept anyway.
  public func card(
    id: String, session: inout ServerSession, deadline: ContinuousClock.Instant
  ) throws(APIError) -> Wire.Card {
    let limited = APIClient(
      transport: HTTPTransport(
        endpoint: transport.endpoint, authorities: transport.authorities,
        bodyLimit: min(transport.bodyLimit, Self.cardAnswerLimit)),
      device: device, now: now)
    let answer = try limited.authorized(
      HTTPRequest(path: "/v1/cards/\(Self.pathSegment(id))"), session: &session,
      deadline: deadline)
    let card = try Self.decode(Wire.Card.self, answer)
    guard card.id == id, card.body != nil else {
      throw .invalid("the card asked for as \(id) came back as \(card.id) or without a body")
    }
    return card
  }

  /// The largest answer read for one card: a card's text is kept up to 1 MiB (a deck line's
  /// limit), and its JSON may escape some of it and carries its other fields beside it.
  public static let cardAnswerLimit = 2 << 20

  /// Authenticates this install: a new token, distinct id and clock offset in `session`.
  public func authenticate(
    session: inout ServerSession, deadline: ContinuousClock.Instant
  ) throws(APIError) {
    let sent = now()
    let request = Wire.AuthRequest(
      installId: session.installId, device: device, user: .init(id: nil), clientTime: sent)
    let body: [UInt8]
    do { body = Array(try JSONEncoder().encode(request)) } catch {
      throw .invalid("cannot encode the auth request")
    }
    let answer = try send(
      HTTPRequest(
        method: "POST", path: "/v1/auth", headers: [("Content-Type", "application/json")],
        body: body), deadline: deadline)
    guard answer.status == 200 else { throw Self.failure(answer) }
    try Self.take(auth: answer, sent: sent, received: now(), into: &session)
  }

  /// Takes the answer of an auth sent at `sent` and answered at `received` into `session`; an
  /// answer with a value no request could carry (a token that cannot go into a header, a clock
  /// over a year off) is refused, and `session` left as it was.
  static func take(
    auth answer: HTTPResponse, sent: Int64, received: Int64, into session: inout ServerSession
  ) throws(APIError) {
    let auth = try decode(Wire.AuthResponse.self, answer)
    let offset = try clockOffset(serverTime: auth.serverTime, sent: sent, received: received)
    guard ServerSession.fitsHeader(auth.token) else {
      throw .invalid("the token is not 1 to \(ServerSession.headerValueLimit) visible ASCII bytes")
    }
    session.token = auth.token
    session.tokenExpiresAt = auth.tokenExpiresAt
    session.distinctId = auth.distinctId
    session.clockOffset = offset
  }

  /// The server's clock minus this machine's, from an auth sent at `sent` and answered at
  /// `received`; an offset over `ServerSession.offsetLimit` is refused, never stored.
  static func clockOffset(serverTime: Int64, sent: Int64, received: Int64) throws(APIError)
    -> Int64
  {
    // Halves first: the midpoint of any two times, without overflow.
    let middle = sent / 2 + received / 2 + (sent % 2 + received % 2) / 2
    let (offset, overflow) = serverTime.subtractingReportingOverflow(middle)
    guard !overflow, ServerSession.isSane(offset: offset) else {
      throw .invalid(
        "the server's clock (serverTime \(serverTime)) is more than a year from this machine's")
    }
    return offset
  }

  // MARK: - Requests

  /// Sends `request` with the token (authenticating first when there is none or it has
  /// expired); on a `401`, authenticates once more and sends it again.
  private func authorized(
    _ request: HTTPRequest, session: inout ServerSession, deadline: ContinuousClock.Instant
  ) throws(APIError) -> HTTPResponse {
    let answer = try exchange(request, session: &session, deadline: deadline)
    guard answer.status == 200 || answer.status == 304 else { throw Self.failure(answer) }
    return answer
  }

  /// Sends `request` with the token as `authorized` does, and returns any answer but a second
  /// `401`: the caller reads it (the analytics sink reads `400`, `413`, `429` its own way).
  public func exchange(
    _ request: HTTPRequest, session: inout ServerSession, deadline: ContinuousClock.Instant
  ) throws(APIError) -> HTTPResponse {
    let serverNow = session.serverTime(at: now())
    if session.token.map(ServerSession.fitsHeader) != true
      || (session.tokenExpiresAt ?? .max) <= serverNow
    {
      try authenticate(session: &session, deadline: deadline)
    }
    var answer = try send(request, token: session.token, deadline: deadline)
    if answer.status == 401 {
      session.token = nil
      try authenticate(session: &session, deadline: deadline)
      answer = try send(request, token: session.token, deadline: deadline)
      if answer.status == 401 {
        session.token = nil
        throw .unauthorized(Self.errorMessage(answer) ?? "401")
      }
    }
    return answer
  }

  private func send(
    _ request: HTTPRequest, token: String? = nil, deadline: ContinuousClock.Instant
  ) throws(APIError) -> HTTPResponse {
    var request = request
    request.headers.append(("Accept", "application/json"))
    if let token { request.headers.append(("Authorization", "Bearer \(token)")) }
    do { return try transport.send(request, deadline: deadline) } catch {
      throw .transport(error)
    }
  }

  // MARK: - Answers

  private static func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPResponse) throws(APIError)
    -> T
  {
    do throws(Wire.Unreadable) { return try Wire.decode(type, from: answer.body) } catch {
      throw .invalid(error.reason)
    }
  }

  /// A pull's answer (`Wire.decodePull`): one of `piecewise` bytes or more is decoded in pieces,
  /// giving the CPU up to a key every few kilobytes.
  public static func decodePull(_ answer: HTTPResponse, piecewise: Int = piecewiseSize)
    throws(APIError)
    -> Wire.Pull
  {
    do throws(Wire.Unreadable) {
      return try Wire.decodePull(answer.body, piecewise: piecewise)
    } catch {
      throw .invalid(error.reason)
    }
  }

  /// Answers at least this long are decoded in pieces.
  public static let piecewiseSize = Wire.piecewiseSize

  private static func failure(_ answer: HTTPResponse) -> APIError {
    switch answer.status {
    case 300..<400: return .redirected(status: answer.status, location: answer.header("Location"))
    case 429, 500..<600:
      let after = answer.header("Retry-After").flatMap { Int($0) }.map { min(max($0, 0), 86_400) }
      return .unavailable(status: answer.status, retryAfter: after)
    default:
      let error = errorAnswer(answer)
      return .refused(
        status: answer.status, code: error?.error.code ?? "unknown",
        message: error?.error.message ?? "no message")
    }
  }

  private static func errorMessage(_ answer: HTTPResponse) -> String? {
    errorAnswer(answer)?.error.message
  }

  private static func errorAnswer(_ answer: HTTPResponse) -> Wire.ErrorAnswer? {
    try? decode(Wire.ErrorAnswer.self, answer)
  }

  /// `id` as one path segment: every byte outside RFC 3986's unreserved set percent-encoded.
  public static func pathSegment(_ id: String) -> String {
    var out = ""
    for byte in id.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) {
        out.append(c)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// The system clock in milliseconds since the epoch.
  public static let systemMilliseconds: @Sendable () -> Int64 = {
    Int64((Date().timeIntervalSince1970 * 1000).rounded())
  }
}
