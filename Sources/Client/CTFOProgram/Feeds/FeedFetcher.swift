import CTFOWire
import HTTP

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches one feed with the project's HTTP client, by the rules for feeds (DECISIONS.md,
/// "Feeds as decks"): a conditional GET (`If-None-Match`, `If-Modified-Since`), a user-agent
/// naming ctfo, at most `bodyLimit` bytes within `timeout`, at most `redirectLimit` redirects,
/// each to http(s) only and, from a feed on a public address, never to a private one
/// (loopback, RFC 1918, link-local, unique local): a feed cannot make ctfo reach into the
/// user's network.
struct FeedFetcher: Sendable {
  static let bodyLimit = 8 << 20
  static let redirectLimit = 5
  static let timeout = Duration.seconds(20)
  static let userAgent = "ctfo/\(Release.version) (feed reader)"

  /// What one fetch gave.
  enum Outcome: Equatable {
    /// 304: nothing new since the validators sent.
    case notModified(cacheSeconds: Int?)
    case fetched(body: [UInt8], etag: String?, lastModified: String?, cacheSeconds: Int?)
    case failed(String)
  }

  /// The host's addresses (4 or 16 bytes each); the system's resolver by default.
  var resolve: @Sendable (String) -> [[UInt8]] = NetworkAddress.addresses
  /// Sends one request; `HTTPTransport` by default.
  var send:
    @Sendable (FeedURL, HTTPRequest, ContinuousClock.Instant) throws(HTTPError) -> HTTPResponse =
      { url, request, deadline throws(HTTPError) in
        try HTTPTransport(endpoint: url.endpoint, bodyLimit: FeedFetcher.bodyLimit).send(
          request, deadline: deadline)
      }

  func fetch(_ address: String, etag: String?, lastModified: String?) -> Outcome {
    let deadline = ContinuousClock.now + Self.timeout
    var url: FeedURL
    do { url = try FeedURL(parsing: address) } catch { return .failed(error.description) }
    let fromPublic = !resolve(url.endpoint.host).contains(where: NetworkAddress.isPrivate)
    var headers: [(name: String, value: String)] = [
      ("User-Agent", Self.userAgent),
      (
        "Accept",
        "application/rss+xml, application/atom+xml, application/feed+json, "
          + "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1"
      ),
    ]
    if let etag { headers.append(("If-None-Match", etag)) }
    if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
    for _ in 0...Self.redirectLimit {
      let response: HTTPResponse
      do {
        response = try send(url, HTTPRequest(path: url.target, headers: headers), deadline)
      } catch {
        return .failed(error.description)
      }
      let cache = Self.maxAge(response.header("Cache-Control"))
      switch response.status {
      case 200:
        return .fetched(
          body: response.body, etag: response.header("ETag"),
          lastModified: response.header("Last-Modified"), cacheSeconds: cache)
      case 304: return .notModified(cacheSeconds: cache)
      case 301, 302, 303, 307, 308:
        guard let location = response.header("Location") else {
          return .failed("a redirect (\(response.status)) without a Location")
        }
        let next: FeedURL
        do { next = try url.resolving(location) } catch {
          return .failed("a redirect to something other than http(s): \(error.description)")
        }
        if fromPublic, resolve(next.endpoint.host).contains(where: NetworkAddress.isPrivate) {
          return .failed("a redirect to a private address (\(next.endpoint.host)) is refused")
        }
        url = next
      default:
        return .failed("the feed answered \(response.status)")
      }
    }
    return .failed("more than \(Self.redirectLimit) redirects")
  }

  /// `max-age` of a Cache-Control header, in seconds.
  static func maxAge(_ header: String?) -> Int? {
    guard let header else { return nil }
    for part in header.split(separator: ",") {
      let item = part.trimmingSpacesAndTabs
      if item.lowercased().hasPrefix("max-age="), let value = Int(item.dropFirst(8)) {
        return value
      }
    }
    return nil
  }
}

/// Network addresses: what a host resolves to, and which are private.
enum NetworkAddress {
  /// The addresses of `host` (an IP address is itself), 4 bytes for IPv4, 16 for IPv6.
  static func addresses(of host: String) -> [[UInt8]] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return [] }
    defer { freeaddrinfo(list) }
    var found: [[UInt8]] = []
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let address = entry {
      entry = address.pointee.ai_next
      guard let raw = address.pointee.ai_addr else { continue }
      if address.pointee.ai_family == AF_INET {
        raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
          found.append(withUnsafeBytes(of: inet.pointee.sin_addr) { Array($0) })
        }
      } else if address.pointee.ai_family == AF_INET6 {
        raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
          found.append(withUnsafeBytes(of: inet.pointee.sin6_addr) { Array($0) })
        }
      }
    }
    return found
  }

  /// Whether an address is not on the public internet: this host, a private network, link
  /// local, shared (CGNAT), unspecified; IPv6 loopback, unique local, link local, and IPv4
  /// mapped into IPv6 by the same rules.
  static func isPrivate(_ address: [UInt8]) -> Bool {
    if address.count == 16 {
      if address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF {
        return isPrivate(Array(address[12...]))
      }
      if address[0..<15].allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
      if address[0] & 0xFE == 0xFC { return true }  // fc00::/7
      if address[0] == 0xFE, address[1] & 0xC0 == 0x80 { return true }  // fe80::/10
      return false
    }
    guard address.count == 4 else { return true }
    let (a, b) = (address[0], address[1])
    return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254)
      || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
      || (a == 100 && (64...127).contains(b)) || a >= 224
  }
}

extension Substring {
  var trimmingSpacesAndTabs: Substring {
    drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" })
      .reversed().reduce(into: Substring()) { $0.append($1) }
  }
}
