import CTFOWire
import Foundation
import HTTPTypes

/// What a pull asks for: the feed, the cache key the client holds, and whether it takes gzip.
struct PullAsk {
  var feed: PullFeed
  /// The `If-None-Match` header as it came.
  var ifNoneMatch: String?
  var gzip: Bool

  init(feed name: String?, ifNoneMatch: String?, acceptEncoding: [String]) throws {
    guard let feed = PullFeed(rawValue: name ?? "hot") else {
      throw APIFailure(.badRequest, code: "bad_feed", message: "feed must be hot or recent")
    }
    self.feed = feed
    self.ifNoneMatch = ifNoneMatch
    gzip = acceptEncoding.isEmpty ? false : Routes.acceptsGzip(acceptEncoding)
  }

  /// The revision a delta starts from: the held key's, when it names this store and feed and
  /// is not ahead; nil for a full pull.
  func since(_ current: CacheKey) -> Int64? {
    tags.compactMap { CacheKey(header: $0) }.compactMap {
      $0.epoch == current.epoch && $0.feed == feed && $0.revision <= current.revision
        ? $0.revision : nil
    }.max()
  }

  /// Whether the client holds `current`: its ETag as this server sends it (a string compared,
  /// nothing parsed), another spelling of the same key, one of a list of them, or `*` (any).
  func holds(_ current: CacheKey) -> Bool {
    guard let ifNoneMatch else { return false }
    let text = current.text
    if ifNoneMatch == "\"\(text)\"" || ifNoneMatch == "\"\(text)\(CacheKey.gzipSuffix)\"" {
      return true
    }
    return tags.contains { $0 == "*" || CacheKey(header: $0) == current }
  }

  /// The entity tags of `If-None-Match`, a list split at its commas (this server's tags hold
  /// none); a few at most are read.
  private var tags: [Substring] {
    guard let ifNoneMatch, ifNoneMatch.utf8.count <= 1024 else { return [] }
    return ifNoneMatch.split(separator: ",", maxSplits: 16).prefix(16).map {
      $0.trimmingCharacters(in: .whitespaces)[...]
    }
  }

  /// The feed a request's path (with its query) names, "hot" when none; nil when its query
  /// says it in a way only the router reads (escaped, or twice).
  static func feedAtOnce(path: String) -> String?? {
    guard let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) else { return .some(nil) }
    var found: String?? = .some(nil)
    for pair in path.utf8[path.utf8.index(after: mark)...].split(separator: UInt8(ascii: "&")) {
      guard !pair.contains(UInt8(ascii: "%")), !pair.contains(UInt8(ascii: "+")) else {
        return nil
      }
      guard pair.starts(with: "feed=".utf8) else { continue }
      if case .some(.some) = found { return nil }
      found = .some(String(Substring(pair.dropFirst(5))))
    }
    return found
  }

  /// The headers of every answer to the pull, a `304` too.
  func headers(_ current: CacheKey) -> HTTPFields {
    // Appended, not set: a field set by name is looked for first, and these are new.
    var headers = HTTPFields()
    headers.reserveCapacity(8)
    // A gzip body is another representation: its strong ETag says so (`CacheKey` reads both).
    headers.append(
      HTTPField(name: .eTag, value: "\"\(current.text)\(gzip ? CacheKey.gzipSuffix : "")\""))
    headers.append(HTTPField(name: .cacheControl, value: "no-cache"))
    headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    return headers
  }

  /// Adds what a body's headers say to the pull's `headers`.
  func describe(body headers: inout HTTPFields) {
    headers.append(HTTPField(name: .contentType, value: "application/json"))
    if gzip { headers.append(HTTPField(name: .contentEncoding, value: "gzip")) }
  }
}

/// The headers a pull answered at once reads, found in one pass over the request's fields (a
/// field looked up by name joins every value of that name into a new string); nil when one of
/// them comes twice, for the route to read as it reads any request.
struct PullFields {
  var authorization: String?
  var ifNoneMatch: String?
  var acceptEncoding: String?

  init?(_ fields: HTTPFields) {
    for field in fields {
      switch field.name {
      case .host: return nil  // A second Host: the router refuses it.
      case .authorization:
        guard authorization == nil else { return nil }
        authorization = field.value
      case .ifNoneMatch:
        guard ifNoneMatch == nil else { return nil }
        ifNoneMatch = field.value
      case .acceptEncoding:
        guard acceptEncoding == nil else { return nil }
        acceptEncoding = field.value
      default: continue
      }
    }
  }
}
