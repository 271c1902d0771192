/// Where the CTFO server is: scheme, host, port and a base path, parsed from the `server`
/// setting.
///
/// Plain `http` is accepted only for a loopback host, so a token never crosses a network in
/// the clear:
///
///     let server = try Endpoint(parsing: "https://cards.example.org/api")
///     server.url(path: "/v1/pull")  // "https://cards.example.org/api/v1/pull"
public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
  public enum Scheme: String, Sendable { case http, https }

  public let scheme: Scheme
  /// The host name or IP address (an IPv6 address without brackets).
  public let host: String
  public let port: Int
  /// "" or a path that starts with "/" and does not end with one.
  public let basePath: String

  /// The longest server address accepted.
  public static let maximumLength = 2048

  public init(parsing text: String) throws(HTTPError) {
    guard text.utf8.count <= Self.maximumLength else {
      throw .badAddress("the server address is longer than \(Self.maximumLength) bytes")
    }
    guard let schemeEnd = text.firstRange(of: "://") else {
      throw .badAddress("the server address '\(text)' does not start with http:// or https://")
    }
    guard let scheme = Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
      throw .badAddress("the server address '\(text)' does not start with http:// or https://")
    }
    let rest = text[schemeEnd.upperBound...]
    guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) else {
      throw .badAddress(
        "the server address '\(text)' has a query, a fragment or a user name; give only "
          + "scheme, host, port and path")
    }
    let authority = rest.prefix { $0 != "/" }
    let (host, port) = try Self.hostAndPort(authority, scheme: scheme, text: text)
    var path = String(rest.dropFirst(authority.count))
    while path.hasSuffix("/") { path.removeLast() }
    guard path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw .badAddress("the server address '\(text)' has a space or non-ASCII in its path")
    }
    self.scheme = scheme
    self.host = host
    self.port = port
    basePath = path
    guard scheme == .https || isLoopback else {
      throw .badAddress(
        "plain http is refused for \(host), which is not this machine: use https://")
    }
  }

  /// Whether the host is this machine: `localhost`, 127.0.0.0/8 or ::1.
  public var isLoopback: Bool {
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  /// The value of the `Host` header: the port only when it is not the scheme's own.
  var hostHeader: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port == Self.defaultPort(scheme) ? name : "\(name):\(port)"
  }

  /// The address of `path` (which starts with "/") on this server.
  public func url(path: String) -> String { "\(scheme.rawValue)://\(hostHeader)\(basePath)\(path)" }

  public var description: String { url(path: "") }

  private static func defaultPort(_ scheme: Scheme) -> Int { scheme == .https ? 443 : 80 }

  static func hostAndPort(
    _ authority: Substring, scheme: Scheme, text: String
  ) throws(HTTPError) -> (String, Int) {
    var host: Substring
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else {
        throw .badAddress("the server address '\(text)' has an unclosed '['")
      }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else {
          throw .badAddress("the server address '\(text)' has text after its IPv6 address")
        }
        portText = after.dropFirst()
      }
      guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
        throw .badAddress("the server address '\(text)' has a bad IPv6 address")
      }
    } else {
      host = authority
      if let colon = authority.lastIndex(of: ":") {
        host = authority[..<colon]
        portText = authority[authority.index(after: colon)...]
      }
      let allowed = { (c: Character) in
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == ".")
      }
      guard !host.isEmpty, host.count <= 253, host.allSatisfy(allowed) else {
        throw .badAddress("the server address '\(text)' has no valid host name")
      }
    }
    guard let portText else { return (host.lowercased(), defaultPort(scheme)) }
    guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isNumber)
    else { throw .badAddress("the server address '\(text)' has a bad port '\(portText)'") }
    return (host.lowercased(), port)
  }
}
