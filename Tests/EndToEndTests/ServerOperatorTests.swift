import Foundation
import Testing

/// The `ctfo-server` binary as an operator runs it: its log at `--log-level info` says when it
/// starts and stops and holds no line per request (`debug` does), and `/healthz`, `/readyz`
/// and `/metrics` answer without a token.
@Suite struct ServerOperatorTests {
  static let deck = #"{"id":"a1","type":"fact","body":"x"}"# + "\n"

  /// The status and body of `GET url` (curl).
  private func get(_ url: String) throws -> (status: Int, body: String) {
    try ServerProcess.curl([url])
  }

  /// What the server logged while serving a few requests, stopped by SIGTERM.
  private func log(at level: String) throws -> String {
    let file = NSTemporaryDirectory() + "ctfo-server-log-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: file) }
    let server = try ServerProcess(deck: Self.deck, options: ["--log-level", level], log: file)
    for path in ["/healthz", "/readyz", "/v1/pull", "/nowhere"] {
      _ = try get(server.url + path)
    }
    #expect(server.stop() == 0, "SIGTERM ends the server gracefully")
    return try String(contentsOfFile: file, encoding: .utf8)
  }

  @Test func atInfoTheLogSaysStartAndStopAndNothingPerRequest() throws {
    let log = try log(at: "info")
    #expect(log.contains("listening"), "\(log)")
    #expect(log.contains("stopped"), "\(log)")
    #expect(!log.contains("/healthz") && !log.contains("/v1/pull"), "\(log)")
    #expect(log.split(separator: "\n").count < 10, "\(log)")
  }

  @Test func atDebugTheLogHasALinePerRequest() throws {
    let log = try log(at: "debug")
    for path in ["/healthz", "/readyz", "/v1/pull", "/nowhere"] {
      #expect(log.contains(path), "\(path) in \(log)")
    }
  }

  @Test func anUnknownLogLevelIsRefused() throws {
    let (status, said) = try ServerProcess.refused(["--log-level", "loud", "--port", "0"])
    #expect(status != 0)
    #expect(said.contains("--log-level"), "\(said)")
  }

  /// A shipped server has no test fault switch: the release build refuses `--test-faults`.
  @Test func theReleaseServerHasNoTestFaults() throws {
    let (status, said) = try ServerProcess.refused(["--test-faults", "--port", "0"])
    #expect(status != 0)
    #expect(said.contains("--test-faults"), "\(said)")
  }

  @Test func theOperatorRoutesAnswerWithoutAToken() throws {
    let server = try ServerProcess(deck: Self.deck)
    defer { server.stop() }
    let health = try get(server.url + "/healthz")
    #expect(health.status == 200 && health.body == "ok\n", "\(health)")
    #expect(try get(server.url + "/readyz").status == 200)
    _ = try get(server.url + "/v1/pull")
    let metrics = try get(server.url + "/metrics")
    #expect(metrics.status == 200)
    #expect(
      metrics.body.contains(#"ctfo_http_requests_total{route="pull",status="401"} 1"#),
      "\(metrics.body)")
    #expect(metrics.body.contains("ctfo_connections_open"))
  }
}
