import CTFOWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore

extension Routes {
  /// A full pull is built around the shared part `cache` keeps (`PullBody`); a delta from the
  /// rows stamped after the client's revision. Either in gzip when the request accepts it.
  static func pull(
    _ request: Request, store: any PullStore, settings: ServerSettings, install: String,
    cache: PullCache
  ) async throws -> Response {
    let ask = try PullAsk(
      feed: request.uri.queryParameters.get("feed"), ifNoneMatch: request.headers[.ifNoneMatch],
      acceptEncoding: request.headers[values: .acceptEncoding])
    let epoch = try await store.epoch()
    let current = CacheKey(
      epoch: epoch, feed: ask.feed,
      revision: try await store.revision(install: install, feed: ask.feed))
    var headers = ask.headers(current)
    if ask.holds(current) { return Response(status: .notModified, headers: headers) }
    var body: ByteBuffer
    if let since = ask.since(current) {
      let changes = try await store.changes(
        since: since, feed: ask.feed, bodyLimit: settings.pullBodyLimit, install: install)
      let json = try PullBody.json(
        Wire.Pull(
          cacheKey: current.text, full: changes.full, serverTime: settings.clock(),
          types: changes.types, cards: changes.cards, removed: changes.removed,
          scores: changes.scores,
          user: Wire.User(
            status: changes.userStatus ?? Changes.defaultStatus,
            notifications: changes.notifications)))
      body = ask.gzip ? try PullBody.gzip(json) : ByteBuffer(bytes: json)
    } else {
      let shared = try await cache.shared(
        store: store, feed: ask.feed, bodyLimit: settings.pullBodyLimit,
        fromMemory: { settings.metrics.pullsFromMemory.increment() })
      body = try PullBody.full(
        shared: shared, cacheKey: current.text, serverTime: settings.clock(),
        own: try await store.ownChanges(install: install, feed: ask.feed), gzip: ask.gzip)
    }
    ask.describe(body: &headers)
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
  }

  /// A pull answered from what is at hand, without waiting: a `304`, or a full pull whose
  /// shared part is kept; nil when the store or the cache would have to be waited for, or the
  /// request is not one these answer (a bad token, a delta, a bad feed), and the route answers
  /// it. Charges the rates as the route does; past one, its `429`.
  static func pullAtOnce(
    _ request: HTTPRequest, address: String, store: any PullStore & TokenStore,
    settings: ServerSettings, limits: Limits, cache: PullCache
  ) -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer?)? {
    guard request.authority != nil, let fields = PullFields(request.headerFields),
      let header = fields.authorization, header.hasPrefix("Bearer "),
      case let token = header.dropFirst(7), (1...256).contains(token.utf8.count),
      let feed = PullAsk.feedAtOnce(path: request.path ?? ""),
      let ask = try? PullAsk(
        feed: feed, ifNoneMatch: fields.ifNoneMatch,
        acceptEncoding: fields.acceptEncoding.map { [$0] } ?? []),
      let install = store.installAtOnce(
        forToken: Token.hash(String(token)), at: settings.clock()),
      let epoch = store.epochAtOnce(),
      let revision = store.revisionAtOnce(install: install, feed: ask.feed)
    else { return nil }
    let current = CacheKey(epoch: epoch, feed: ask.feed, revision: revision)
    var headers = ask.headers(current)
    var body: ByteBuffer?
    if !ask.holds(current) {
      // What the route would build: nothing is charged for a pull handed on to it.
      guard ask.since(current) == nil,
        let shared = store.revisionAtOnce(install: nil, feed: ask.feed).flatMap({
          cache.kept(
            epoch: epoch, feed: ask.feed, revision: $0, bodyLimit: settings.pullBodyLimit)
        }),
        let own = store.ownChangesAtOnce(install: install, feed: ask.feed, revision: revision),
        let full = try? PullBody.full(
          shared: shared, cacheKey: current.text, serverTime: settings.clock(), own: own,
          gzip: ask.gzip)
      else { return nil }
      body = full
    }
    do {
      try limits.charge(install: install)
    } catch let failure as APIFailure {
      return failure.answer()
    } catch {
      return nil
    }
    guard let body else { return (.notModified, headers, nil) }
    settings.metrics.pullsFromMemory.increment()
    ask.describe(body: &headers)
    return (.ok, headers, body)
  }

  /// The longest `Accept-Encoding` read, in bytes: past it, the answer is not compressed.
  static let acceptEncodingLimit = 256

  /// Whether an `Accept-Encoding` list takes gzip: named (or `*`) with a weight above zero.
  /// Read as bytes: it is read on every pull.
  static func acceptsGzip(_ values: [String]) -> Bool {
    // A longer list is no client's: read it, and every pull (and 429) costs its length.
    guard values.reduce(0, { $0 + $1.utf8.count }) <= acceptEncodingLimit else { return false }
    var named: Bool?
    var any = false
    for value in values {
      for item in value.utf8.split(separator: UInt8(ascii: ",")) {
        let parts = item.split(separator: UInt8(ascii: ";")).map(Self.trimmed)
        guard let coding = parts.first, !coding.isEmpty else { continue }
        let weight =
          parts.dropFirst().first { Self.lowercased($0.prefix(2)) == Array("q=".utf8) }
          .flatMap { Double(String(decoding: $0.dropFirst(2), as: UTF8.self)) } ?? 1
        switch Self.lowercased(coding) {
        case Array("gzip".utf8), Array("x-gzip".utf8): named = weight > 0
        case [UInt8(ascii: "*")]: any = weight > 0
        default: continue
        }
      }
    }
    return named ?? any
  }

  /// `bytes` without the spaces and tabs around them (HTTP's optional white space).
  private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
    let space = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !space($0) }),
      let last = bytes.lastIndex(where: { !space($0) })
    else { return bytes[bytes.endIndex...] }
    return bytes[first...last]
  }

  /// ASCII letters made lower case, other bytes as they are.
  private static func lowercased<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
  }
}
