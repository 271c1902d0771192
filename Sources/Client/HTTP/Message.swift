/// An HTTP request to the server: a method, a path below the endpoint's base path (with its
/// query), headers and a body.
public struct HTTPRequest: Sendable, Equatable {
  public var method: String
  public var path: String
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(
    method: String = "GET", path: String, headers: [(name: String, value: String)] = [],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
  }

  public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
    a.method == b.method && a.path == b.path && a.body == b.body
      && a.headers.map(\.name) == b.headers.map(\.name)
      && a.headers.map(\.value) == b.headers.map(\.value)
  }

  /// The bytes sent for this request to `endpoint`: one request per connection, closed after.
  func serialized(for endpoint: Endpoint) throws(HTTPError) -> [UInt8] {
    let token = { (c: UInt8) in c > 0x20 && c < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(c) }
    guard !method.isEmpty, method.utf8.allSatisfy(token) else {
      throw .badRequest("'\(method)' is not an HTTP method")
    }
    guard path.hasPrefix("/"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .badRequest("'\(path)' is not a request path")
    }
    var head = "\(method) \(endpoint.basePath)\(path) HTTP/1.1\r\n"
    head += "Host: \(endpoint.hostHeader)\r\nConnection: close\r\n"
    if !body.isEmpty || method == "POST" || method == "PUT" {
      head += "Content-Length: \(body.count)\r\n"
    }
    for (name, value) in headers {
      guard !name.isEmpty, name.utf8.allSatisfy(token),
        value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
      else { throw .badRequest("the header '\(name)' cannot be sent") }
      head += "\(name): \(value)\r\n"
    }
    return Array((head + "\r\n").utf8) + body
  }
}

/// An HTTP response: the status, the headers in order, the whole body.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first header called `name` (compared without regard to case).
  public func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
  }

  public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
    a.status == b.status && a.body == b.body && a.headers.map(\.name) == b.headers.map(\.name)
      && a.headers.map(\.value) == b.headers.map(\.value)
  }
}
