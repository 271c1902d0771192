/// Why an HTTP exchange with the server failed, in words a user can act on.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
  /// The server address is not one ctfo will talk to (`server = ...`, `--server`).
  case badAddress(String)
  /// The host has no address, or none accepted the connection.
  case unreachable(String)
  /// The deadline passed before the answer was whole.
  case timedOut
  /// TLS could not be set up, or the certificate is not trusted for the host.
  case tls(String)
  /// The answer is not HTTP/1.1 as RFC 9112 writes it, or stops short.
  case malformed(String)
  /// The answer is larger than the limit the client reads.
  case tooLarge(limit: Int)
  /// A request that cannot be sent as given (a header with a line break).
  case badRequest(String)

  public var description: String {
    switch self {
    case .badAddress(let why): return why
    case .unreachable(let why): return why
    case .timedOut: return "the server did not answer in time"
    case .tls(let why): return why
    case .malformed(let why): return "the server's answer is not valid HTTP: \(why)"
    case .tooLarge(let limit): return "the server's answer is larger than \(limit) bytes"
    case .badRequest(let why): return why
    }
  }
}
