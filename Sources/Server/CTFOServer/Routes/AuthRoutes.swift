import CTFOWire
import FlatJSON
import Foundation
import Hummingbird
import NIOCore

extension Routes {
  static func auth(
    _ request: Request, store: any PullStore & TokenStore, settings: ServerSettings, limits: Limits
  ) async throws -> Response {
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: settings.requestBodyLimit)
    } catch is NIOTooManyBytesError {
      throw APIFailure(
        .contentTooLarge, code: "too_large",
        message: "the body is over \(settings.requestBodyLimit) bytes")
    }
    let bytes = Array(buffer: body)
    guard !JSONNesting.exceeds(bytes),
      let auth = try? JSONDecoder().decode(Wire.AuthRequest.self, from: Data(bytes))
    else {
      throw APIFailure(.badRequest, code: "bad_request", message: "the body is not an auth request")
    }
    guard (1...128).contains(auth.installId.utf8.count),
      auth.installId.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
    else {
      throw APIFailure(
        .badRequest, code: "bad_install_id", message: "installId must be 1 to 128 printable ASCII")
    }
    try limits.charge(authOf: auth.installId)
    let now = settings.clock()
    let token = Token.make()
    let expires = now + settings.tokenLifetime
    let distinct = try await store.issueToken(
      hash: token.hash, installId: auth.installId, expiresAt: expires)
    let key = CacheKey(
      epoch: try await store.epoch(), feed: .hot,
      revision: try await store.revision(install: auth.installId, feed: .hot))
    return try json(
      Wire.AuthResponse(
        token: token.text, tokenExpiresAt: expires, cacheKey: key.text, distinctId: distinct,
        serverTime: now))
  }

  /// The install of the request's bearer token; `401` without a good one, `429` past the
  /// address's or the install's rate.
  static func authorize(
    _ request: Request, _ context: CTFOContext, store: any TokenStore, settings: ServerSettings,
    limits: Limits
  ) async throws -> String {
    // The address is charged only for what the install's rate does not limit: a request
    // without a valid token.
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
      case let token = String(header.dropFirst(7)), (1...256).contains(token.utf8.count)
    else {
      try limits.charge(address: request, context)
      throw APIFailure(.unauthorized, code: "unauthorized", message: "a bearer token is needed")
    }
    guard let install = try await store.install(forToken: Token.hash(token), at: settings.clock())
    else {
      try limits.charge(address: request, context)
      throw APIFailure(.unauthorized, code: "unauthorized", message: "the token is not valid")
    }
    try limits.charge(install: install)
    return install
  }
}
