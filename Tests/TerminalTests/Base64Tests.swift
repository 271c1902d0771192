import Testing

@testable import Terminal

/// OSC 52's base64: RFC 4648's test vectors.
@Suite struct Base64Tests {
  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
  ])
  func theVectorsOfRFC4648(plain: String, encoded: String) {
    #expect(String(decoding: Base64.encode(Array(plain.utf8)), as: UTF8.self) == encoded)
  }
}
