import TestFixtures
import HTTPTypes
import Hummingbird
import Testing

@testable import CTFOServer

/// Who may see the dashboard: the admin token as a bearer token, or the cookie the login
/// sets (the token's SHA-256 in hex), compared byte for byte in constant time.
struct DashboardAuthTests {
  static let token = "s3cret-admin-token"
  static let admin = Token.hash(token)

  private func request(_ fields: [(HTTPField.Name, String)]) -> Request {
    var headers = HTTPFields()
    for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
    return Request(
      head: HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/dashboard",
        headerFields: headers),
      body: RequestBody(buffer: .init()))
  }

  @Test func theTokenOrItsCookieAndNothingElse() {
    let hex = Token.hex(Self.admin)
    let cookie = DashboardRoutes.cookie
    let accepted: [[(HTTPField.Name, String)]] = [
      [(.authorization, "Bearer \(Self.token)")],
      [(.cookie, "\(cookie)=\(hex)")],
      [(.cookie, "other=1; \(cookie)=\(hex); more=2")],
    ]
    for fields in accepted {
      #expect(DashboardRoutes.authorized(request(fields), admin: Self.admin), "\(fields)")
    }
    var wrongLast = Array(hex.utf8)
    wrongLast[wrongLast.count - 1] = wrongLast.last == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
    let refused: [[(HTTPField.Name, String)]] = [
      [],
      [(.authorization, "Bearer \(Self.token)x")],
      [(.authorization, "Bearer \(hex)")],
      [(.cookie, "\(cookie)=\(String(decoding: wrongLast, as: UTF8.self))")],
      [(.cookie, "\(cookie)=\(hex.dropLast())")],
      [(.cookie, "\(cookie)=")],
      [(.cookie, "\(cookie)x=\(hex)")],
      [(.cookie, "\(cookie)=\(Self.token)")],
    ]
    for fields in refused {
      #expect(!DashboardRoutes.authorized(request(fields), admin: Self.admin), "\(fields)")
    }
  }

  /// Equal exactly when the bytes are, over random pairs that differ in one byte or length.
  @Test func constantTimeEqualIsEquality() {
    var random = SeededGenerator(seed: 44)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...40, using: &random)
      let a = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      var b = a
      switch Int.random(in: 0...2, using: &random) {
      case 0 where !b.isEmpty: b[Int.random(in: 0..<b.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
      case 1: b.append(UInt8.random(in: 0...255, using: &random))
      default: break
      }
      #expect(DashboardRoutes.constantTimeEqual(a, b) == (a == b))
    }
  }
}
