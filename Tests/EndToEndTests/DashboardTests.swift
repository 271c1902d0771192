import Foundation
import Testing

/// The release `ctfo-server`'s dashboard over HTTP: 401 without the admin token (or with a
/// wrong one), the page with it as a bearer token or as the cookie the login sets, a strict
/// Content-Security-Policy, and every string from events escaped. The browser test
/// (scripts/dashboard-browser-test.sh) checks the charts as chromium draws them.
@Suite struct DashboardTests {
  static let deck = #"{"id":"a1","type":"fact","title":"Alpha","body":"x"}"# + "\n"
  static let token = "s3cret-admin-token-0123456789"
  static let hostile = "<script>alert(1)</script>"

  /// curl's status, headers (lower-cased names) and body.
  private func curl(_ arguments: [String]) throws -> (status: Int, headers: [String: String], body: String) {
    let headerFile = NSTemporaryDirectory() + "ctfo-dash-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: headerFile) }
    let answer = try ServerProcess.curl(["-D", headerFile] + arguments)
    var headers: [String: String] = [:]
    for line in (try? String(contentsOfFile: headerFile, encoding: .utf8))?.split(separator: "\r\n") ?? [] {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return (answer.status, headers, answer.body)
  }

  @Test func onlyTheAdminTokenOpensTheDashboardAndEveryEventStringIsEscaped() throws {
    let folder = NSTemporaryDirectory() + "ctfo-dash-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try (Self.token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
    let server = try ServerProcess(
      deck: Self.deck, options: ["--admin-token-file", folder + "/token"])
    defer { server.stop() }

    let auth = try curl([
      "-H", "Content-Type: application/json", "-d",
      #"{"installId":"i1","device":{"platform":"linux","app":"t","locale":"C"},"user":{},"clientTime":0}"#,
      server.url + "/v1/auth",
    ])
    let json = try JSONSerialization.jsonObject(with: Data(auth.body.utf8)) as? [String: Any]
    let install = try #require(json?["token"] as? String, "\(auth)")
    let now = Int(Date().timeIntervalSince1970 * 1000)
    func event(_ name: String, _ id: String) -> String {
      #"{"event":"\#(name)","properties":{"time":\#(now),"distinct_id":"i1","$insert_id":"\#(id)","card_id":"a1","card_type":"fact"}}"#
    }
    let posted = try curl([
      "-H", "Authorization: Bearer \(install)", "-H", "Content-Type: application/json", "-d",
      "[" + [event("CTFO", "e1"), event(Self.hostile, "e2"), #"{"event":"x"}"#].joined(separator: ",") + "]",
      server.url + "/v1/events",
    ])
    #expect(posted.status == 400, "one record of three is refused: \(posted)")

    let page = server.url + "/dashboard"
    #expect(try curl([page]).status == 401)
    #expect(try curl(["-H", "Authorization: Bearer wrong-token-0123456789", page]).status == 401)
    #expect(try curl(["-H", "Authorization: Bearer \(install)", page]).status == 401)
    let shown = try curl(["-H", "Authorization: Bearer \(Self.token)", page])
    #expect(shown.status == 200)
    let policy = shown.headers["content-security-policy"] ?? ""
    #expect(policy.hasPrefix("default-src 'none'"), "\(policy)")
    #expect(!policy.contains("unsafe"), "\(policy)")
    #expect(shown.headers["content-type"] == "text/html; charset=utf-8")
    #expect(shown.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!shown.body.contains(Self.hostile), "a name from an event reaches the page raw")
    #expect(!shown.body.contains("<script"))
    #expect(shown.body.contains(#"data-type="fact" data-reaction="CTFO" data-value="1""#))
    #expect(shown.body.contains(#"<tr><th scope="row">ctfo</th><td>1</td><td>0</td></tr>"#))

    let wrong = try curl(["-d", "token=nope", server.url + "/dashboard/login"])
    #expect(wrong.status == 401)
    let login = try curl(["-d", "token=\(Self.token)", server.url + "/dashboard/login"])
    #expect(login.status == 303)
    #expect(login.headers["location"] == "/dashboard")
    let cookie = try #require(login.headers["set-cookie"])
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
    #expect(!cookie.contains(Self.token), "the cookie holds no token")
    let pair = String(cookie.prefix { $0 != ";" })
    #expect(try curl(["-H", "Cookie: \(pair)", page]).status == 200)
    #expect(try curl(["-H", "Cookie: ctfo_admin=0000", page]).status == 401)
  }

  @Test func aTokenFileThatCannotBeUsedStopsTheServerWithWhy() throws {
    let folder = NSTemporaryDirectory() + "ctfo-dash-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "short\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
    for file in [folder + "/token", folder + "/missing"] {
      let (status, said) = try ServerProcess.refused([
        "--port", "0", "--data", folder, "--admin-token-file", file,
      ])
      #expect(status == 66, "\(said)")
      #expect(said.contains(file), "\(said)")
    }
  }
}
