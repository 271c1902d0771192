import HTTP

/// Why a call to the CTFO server failed; `description` is one sentence for the status line.
public enum APIError: Error, Equatable, CustomStringConvertible {
  /// No answer: the network, the address, TLS, a deadline.
  case transport(HTTPError)
  /// The server is busy or down for now (429, 503, any 5xx); `retryAfter` in seconds.
  case unavailable(status: Int, retryAfter: Int?)
  /// The token was refused again after a new auth.
  case unauthorized(String)
  /// A redirect, which is never followed.
  case redirected(status: Int, location: String?)
  /// Any other refusal, with the server's code and message.
  case refused(status: Int, code: String, message: String)
  /// An answer that is not what openapi.yaml promises.
  case invalid(String)

  public var description: String {
    switch self {
    case .transport(let error): return error.description
    case .unavailable(let status, let after):
      return "the server is unavailable (\(status))"
        + (after.map { ", try again in \($0) s" } ?? "")
    case .unauthorized(let message): return "the server refused the token: \(message)"
    case .redirected(let status, let location):
      return "the server redirects (\(status)) to \(location ?? "nowhere"); redirects are not "
        + "followed, check the server address"
    case .refused(let status, let code, let message):
      return "the server refused the request (\(status) \(code)): \(message)"
    case .invalid(let why): return "the server's answer is not valid: \(why)"
    }
  }
}
