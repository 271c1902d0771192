import Foundation
import TestFixtures
import Testing

@testable import HTTP

/// `openssl s_server` on 127.0.0.1 with a certificate made for the test: a real TLS peer.
final class TLSPeer {
  let port: Int
  let folder: URL
  private let process = Process()

  /// A peer whose certificate names `names` (e.g. "DNS:localhost,IP:127.0.0.1").
  init(names: String) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-tls-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Self.openssl(
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", "key.pem", "-out", "cert.pem", "-days", "1", "-subj", "/CN=ctfo test",
        "-addext", "subjectAltName=\(names)",
      ], in: folder)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "s_server", "-accept", "127.0.0.1:0", "-cert", "cert.pem", "-key", "key.pem", "-www",
      "-naccept", "1",
    ]
    process.currentDirectoryURL = folder
    process.standardError = FileHandle.nullDevice
    // It says "ACCEPT 127.0.0.1:PORT" once the socket listens.
    let (port, said) = try ListeningProcess.start(process, saying: "ACCEPT")
    guard let port else { throw HTTPError.unreachable("openssl s_server did not start: \(said)") }
    self.port = port
  }

  var certificate: String { folder.appendingPathComponent("cert.pem").path }

  func stop() {
    // s_server may sit in a handshake it does not give up on SIGTERM.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: folder)
  }

  private static func openssl(_ arguments: [String], in folder: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw HTTPError.tls("openssl \(arguments[0]) failed")
    }
  }
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct TLSTests {
  private func get(_ host: String, _ peer: TLSPeer, trusting authorities: String?) throws
    -> HTTPResponse
  {
    let endpoint = try Endpoint(parsing: "https://\(host):\(peer.port)")
    return try HTTPTransport(endpoint: endpoint, authorities: authorities)
      .send(HTTPRequest(path: "/"), deadline: .now + .seconds(10))
  }

  @Test(arguments: ["localhost", "127.0.0.1"])
  func aCertificateThatNamesTheHostFromATrustedAuthority(host: String) throws {
    let peer = try TLSPeer(names: "DNS:localhost,IP:127.0.0.1")
    defer { peer.stop() }
    let answer = try get(host, peer, trusting: peer.certificate)
    #expect(answer.status == 200)
    #expect(String(decoding: answer.body, as: UTF8.self).contains("s_server"))
  }

  @Test func aCertificateNoTrustedAuthoritySignedIsRefused() throws {
    let peer = try TLSPeer(names: "DNS:localhost")
    defer { peer.stop() }
    #expect {
      try get("localhost", peer, trusting: nil)
    } throws: { "\($0)".contains("certificate is not trusted") }
  }

  @Test func aCertificateForAnotherHostIsRefused() throws {
    let peer = try TLSPeer(names: "DNS:other.example")
    defer { peer.stop() }
    #expect {
      try get("localhost", peer, trusting: peer.certificate)
    } throws: { "\($0)".contains("certificate is not trusted: hostname mismatch") }
  }
}
