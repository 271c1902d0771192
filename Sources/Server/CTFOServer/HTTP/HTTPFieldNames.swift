import HTTPTypes

extension HTTPField.Name {
  /// The addresses a request came through, the client's first (a proxy appends its peer's).
  static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

extension HTTPField.Name {
  /// A request's `Host` past its first (the first is the request's authority).
  static let host = HTTPField.Name("Host")!
}
