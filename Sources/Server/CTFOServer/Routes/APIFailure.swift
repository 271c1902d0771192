import CTFOWire
import Foundation
import HTTPTypes
import NIOCore

/// An error answered as `{"error": {"code", "message"}}`, with `Retry-After` when given.
struct APIFailure: Error {
  var status: HTTPResponse.Status
  var code: String
  var message: String
  var retryAfter: Int?

  init(_ status: HTTPResponse.Status, code: String, message: String, retryAfter: Int? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.retryAfter = retryAfter
  }
}

extension APIFailure {
  static func rateLimited(retryAfter wait: Int) -> APIFailure {
    APIFailure(
      .tooManyRequests, code: "rate_limited", message: "too many requests", retryAfter: wait)
  }

  /// The answer that says it: `{"error": {"code", "message"}}`, with `Retry-After` when given.
  func answer() -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
    let json =
      (try? JSONEncoder().encode(Wire.ErrorAnswer(error: .init(code: code, message: message))))
      ?? Data()
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    return (status, headers, ByteBuffer(bytes: json))
  }
}
