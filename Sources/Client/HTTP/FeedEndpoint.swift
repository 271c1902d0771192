/// A feed's address, split for `HTTPTransport`: plain http is allowed to any host (a feed is
/// public; no token is ever sent to it), the path keeps its query. The fragment and a user
/// name are never sent: an address with `@` in its host part is refused.
///
///     let url = try FeedURL(parsing: "https://example.org/feed.xml?lang=en#top")
///     url.endpoint.host   // "example.org"
///     url.target          // "/feed.xml?lang=en"
public struct FeedURL: Sendable, Equatable, CustomStringConvertible {
  public let endpoint: Endpoint
  /// The path and query sent in the request line, starting with "/".
  public let target: String

  public init(parsing text: String) throws(HTTPError) {
    guard text.utf8.count <= Endpoint.maximumLength else {
      throw .badAddress("the feed address is longer than \(Endpoint.maximumLength) bytes")
    }
    guard let schemeEnd = text.firstRange(of: "://"),
      let scheme = Endpoint.Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased())
    else {
      throw .badAddress("the feed address '\(text)' does not start with http:// or https://")
    }
    var rest = text[schemeEnd.upperBound...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    guard !authority.contains("@"), !authority.isEmpty else {
      throw .badAddress("the feed address '\(text)' has a user name or no host")
    }
    var target = String(rest.dropFirst(authority.count))
    if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
    guard target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw .badAddress("the feed address '\(text)' has a space or non-ASCII in its path")
    }
    let (host, port) = try Endpoint.hostAndPort(authority, scheme: scheme, text: text)
    endpoint = Endpoint(feedScheme: scheme, host: host, port: port)
    self.target = target
  }

  /// The address `location` (a redirect's) names, relative to this one.
  public func resolving(_ location: String) throws(HTTPError) -> FeedURL {
    if location.contains("://") { return try FeedURL(parsing: location) }
    let origin = endpoint.url(path: "")
    if location.hasPrefix("//") {
      return try FeedURL(parsing: "\(endpoint.scheme.rawValue):\(location)")
    }
    if location.hasPrefix("/") { return try FeedURL(parsing: origin + location) }
    let path = target.prefix { $0 != "?" }
    let folder = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
    return try FeedURL(parsing: origin + folder + location)
  }

  public var description: String { endpoint.url(path: target) }
}

extension Endpoint {
  /// A feed's server: any host, plain http or https, no base path.
  init(feedScheme: Scheme, host: String, port: Int) {
    scheme = feedScheme
    self.host = host
    self.port = port
    basePath = ""
  }
}
