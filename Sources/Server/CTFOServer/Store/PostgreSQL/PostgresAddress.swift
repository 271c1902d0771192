import NIOSSL
import PostgresNIO

/// A PostgreSQL URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable]`; a host
/// that is a folder (`/...` or `%2F...`) names the folder of the server's socket.
struct PostgresAddress: Equatable {
  var user: String
  var password: String?
  var host: String
  var port: Int
  var database: String
  var tls: Bool
  /// The socket's path when the host is a folder.
  var socket: String? { host.hasPrefix("/") ? host + "/.s.PGSQL.\(port)" : nil }
  /// The URL without its password, for messages.
  var shown: String {
    "postgres://\(user)@\(host.hasPrefix("/") ? "[\(host)]" : host):\(port)/\(database)"
  }

  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  init(_ url: String) throws {
    func invalid(_ why: String) -> Invalid {
      Invalid(
        description: "\(why): a store URL is postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
    }
    var rest = Substring(url)
    if rest.hasPrefix("postgres://") {
      rest = rest.dropFirst("postgres://".count)
    } else if rest.hasPrefix("postgresql://") {
      rest = rest.dropFirst("postgresql://".count)
    } else {
      throw invalid("not a postgres:// URL")
    }
    var query = Substring("")
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    guard let at = rest.lastIndex(of: "@") else { throw invalid("no user") }
    let userInfo = rest[..<at]
    rest = rest[rest.index(after: at)...]
    guard let slash = rest.firstIndex(of: "/") else { throw invalid("no database") }
    let database = Self.decoded(rest[rest.index(after: slash)...])
    let hostPort = rest[..<slash]
    if let colon = hostPort.lastIndex(of: ":") {
      guard let port = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(port)
      else { throw invalid("a bad port") }
      host = Self.decoded(hostPort[..<colon])
      self.port = port
    } else {
      host = Self.decoded(hostPort)
      port = 5432
    }
    if let colon = userInfo.firstIndex(of: ":") {
      user = Self.decoded(userInfo[..<colon])
      password = Self.decoded(userInfo[userInfo.index(after: colon)...])
    } else {
      user = Self.decoded(userInfo)
      password = nil
    }
    self.database = database
    guard !user.isEmpty else { throw invalid("no user") }
    guard !host.isEmpty else { throw invalid("no host") }
    guard !database.isEmpty else { throw invalid("no database") }
    tls = !host.hasPrefix("/") && !query.split(separator: "&").contains("sslmode=disable")
  }

  /// `text` with its `%XX` escapes decoded.
  private static func decoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension PostgresAddress {
  /// The configuration of a connection to this address, a lone connection's or a pool's:
  /// its socket, or its host and port with TLS preferred unless the URL disabled it.
  func configuration<Configuration: PostgresEndpointConfiguration>(
    _: Configuration.Type
  ) throws -> Configuration {
    if let socket {
      return Configuration(
        unixSocketPath: socket, username: user, password: password, database: database)
    }
    return Configuration(
      host: host, port: port, username: user, password: password, database: database,
      tls: tls ? try Configuration.preferredTLS() : Configuration.noTLS)
  }
}

/// What PostgresNIO's two configurations share, a lone connection's and a pool's: how they are
/// made for an address (`PostgresAddress.configuration`).
protocol PostgresEndpointConfiguration {
  associatedtype TLS
  init(unixSocketPath: String, username: String, password: String?, database: String?)
  init(host: String, port: Int, username: String, password: String?, database: String?, tls: TLS)
  /// TLS when the server offers it, with the system's trusted certificates.
  static func preferredTLS() throws -> TLS
  static var noTLS: TLS { get }
}

extension PostgresConnection.Configuration: PostgresEndpointConfiguration {
  static func preferredTLS() throws -> TLS {
    .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
  }
  static var noTLS: TLS { .disable }
}

extension PostgresClient.Configuration: PostgresEndpointConfiguration {
  static func preferredTLS() -> TLS { .prefer(.makeClientConfiguration()) }
  static var noTLS: TLS { .disable }
}
