import Testing

@testable import HTTP

struct EndpointTests {
  @Test func httpsWithAPathAndTheDefaultPort() throws {
    let server = try Endpoint(parsing: "HTTPS://Cards.Example.org/api/")
    #expect(server.scheme == .https)
    #expect(server.host == "cards.example.org")
    #expect(server.port == 443)
    #expect(server.basePath == "/api")
    #expect(server.hostHeader == "cards.example.org")
    #expect(server.url(path: "/v1/pull") == "https://cards.example.org/api/v1/pull")
    #expect(!server.isLoopback)
  }

  @Test(arguments: [
    ("http://127.0.0.1:8080", "127.0.0.1", 8080, "127.0.0.1:8080"),
    ("http://localhost", "localhost", 80, "localhost"),
    ("http://127.3.2.1:1", "127.3.2.1", 1, "127.3.2.1:1"),
    ("http://[::1]:9000/", "::1", 9000, "[::1]:9000"),
  ])
  func plainHTTPOnLoopback(text: String, host: String, port: Int, header: String) throws {
    let server = try Endpoint(parsing: text)
    #expect(server.host == host)
    #expect(server.port == port)
    #expect(server.hostHeader == header)
    #expect(server.isLoopback)
  }

  @Test(arguments: [
    ("http://example.org", "plain http is refused for example.org"),
    ("http://127.0.0.1.example.org", "plain http is refused"),
    ("http://128.0.0.1", "plain http is refused"),
    ("ftp://example.org", "does not start with http:// or https://"),
    ("example.org", "does not start with http:// or https://"),
    ("https://user:pw@example.org", "user name"),
    ("https://example.org/?x=1", "query"),
    ("https://example.org:0", "bad port '0'"),
    ("https://example.org:65536", "bad port"),
    ("https://example.org:+80", "bad port"),
    ("https://:443", "no valid host name"),
    ("https://exa mple.org", "no valid host name"),
    ("https://[::1", "unclosed"),
    ("https://example.org/a b", "space"),
  ])
  func refused(text: String, message: String) {
    #expect {
      try Endpoint(parsing: text)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func aLongAddressIsRefusedAtTheLimit() throws {
    let base = "https://example.org/"
    let atLimit = base + String(repeating: "a", count: Endpoint.maximumLength - base.count)
    _ = try Endpoint(parsing: atLimit)
    #expect(throws: HTTPError.self) { try Endpoint(parsing: atLimit + "a") }
  }
}
