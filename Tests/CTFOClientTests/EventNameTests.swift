import CTFOServer
import CTFOWire
import Foundation
import HTTP
import Testing

/// Event names reach an operator's terminal (`ctfo-server events`): a name with a control,
/// bidi or line-break character is refused at ingest and named, and one stored
/// before is printed safe, on its own line.
@Suite(.timeLimit(.minutes(1)))
struct EventNameTests {
  /// Names as JSON strings: ESC/CSI, OSC with BEL, CR, NUL, C1, a bidi override, a newline
  /// forging a `NAME COUNT` line, U+2028.
  static let badNames = [
    #"clear\u001b[2J"#, #"title\u001b]0;owned\u0007"#, #"back\rspace"#, #"nul\u0000"#,
    #"csi\u009b"#, "rtl\u{202E}txt", #"forged 99\nTFU"#, "line\u{2028}sep",
  ]

  @Test func aNameWithAControlBidiOrLineBreakIsRefusedAndNamedTheOthersKept() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let a = try await RawInstall("install-a", on: server)
    let names = [#"Card Viewed"#] + Self.badNames
    let body = names.enumerated().map { i, name in
      #"{"event":"\#(name)","properties":{"time":1763900000123,"distinct_id":"x","#
        + #""$insert_id":"id-\#(i)"}}"#
    }
    let answer = try await a.post(body: "[" + body.joined(separator: ",") + "]")
    #expect(answer.status == 400)
    let refused = try JSONDecoder().decode(
      EventFormat.ImportFailure.self, from: Data(answer.body))
    #expect(refused.failedRecords.map(\.index) == Array(1...Self.badNames.count))
    #expect(refused.failedRecords.map(\.insertID) == (1...Self.badNames.count).map { "id-\($0)" })
    #expect(refused.failedRecords.allSatisfy { $0.message?.contains("control, bidi") == true })
    #expect(try server.store.events(sink: "ctfo").map(\.name) == ["Card Viewed"])
  }

  @Test func namesStoredBeforeArePrintedSafeOneALine() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let names = try Self.badNames.map {
      try JSONDecoder().decode(String.self, from: Data("\"\($0)\"".utf8))
    }
    try server.store.record(
      events: names.enumerated().map { i, name in
        ReceivedEvent(
          sink: "mixpanel", insertID: "id-\(i)", name: name, distinctID: "d", time: 1,
          payload: "{}")
      }, install: nil, at: 1)
    let report = try server.store.eventReport(sink: "mixpanel")
    let lines = report.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == names.count, "\(report.debugDescription)")
    #expect(lines.allSatisfy { $0.hasSuffix(" 1") })
    let unsafe = report.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
        || [0x202E, 0x2028].contains($0.value)
    }
    #expect(unsafe.isEmpty, "\(report.debugDescription)")
  }
}
