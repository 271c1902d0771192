import Decks
import Foundation
import TestFixtures
import Testing

@Suite struct DeckCheckTests {
  @Test func everyKindOfBadLineIsReportedWithItsLineNumber() throws {
    let home = try TestHome()
    let path = try home.deck(
      "bad.jsonl",
      [
        #"{"deck": "mixed", "types": {"fact": {"label": "Fact"}}}"#,
        cardLine("a"),
        "",
        #"{"id": "b", "type": "fact""#,
        #"{"type": "fact", "body": "no id"}"#,
        #"{"id": "c", "body": "no type"}"#,
        #"{"id": "d", "type": "fact"}"#,
        #"{"id": "e", "type": "fact", "body": "x", "title": 3}"#,
        #"{"id": 5, "type": "fact", "body": "x"}"#,
        #"[1, 2]"#,
        #"{"id": "f", "type": "fact", "body": "x", "source": ["s"], "url": "u"}"#,
        #"{"id": "g", "type": "fact", "body": "ok", "extra": {"nested": [1, 2]}, "title": null}"#,
        #"{"deck": "late header"}"#,
        #"{"id": "h", "type": "fact", "body": "x", "reveal": false}"#,
        "   ",
        cardLine("i"),
      ])
    let report = DeckCheck.check([path])
    #expect(
      report.problems.map(\.description) == [
        "\(path):4: not valid JSON",
        "\(path):5: missing \"id\"",
        "\(path):6: missing \"type\"",
        "\(path):7: missing \"body\"",
        "\(path):8: \"title\" must be a string",
        "\(path):9: \"id\" must be a string",
        "\(path):10: not a JSON object",
        "\(path):11: \"source\" must be a string",
        "\(path):13: a header must be the first line",
        "\(path):14: \"reveal\" must be a string",
      ])
    #expect(report.cards == 3)
  }

  @Test func badHeaderTypesAreReported() throws {
    let home = try TestHome()
    let path = try home.deck(
      "header.jsonl", [#"{"deck": "d", "types": {"fact": {"label": 1}}}"#, cardLine("a")])
    #expect(
      DeckCheck.check([path]).problems.map(\.description) == [
        "\(path):1: type \"fact\": \"label\" must be a string"
      ])
  }

  @Test func invalidUTF8IsRepairedNotRejected() throws {
    let home = try TestHome()
    let path = home.url.appendingPathComponent("latin1.jsonl").path
    var bytes = Array(#"{"id": "a", "type": "fact", "body": "caf"#.utf8)
    bytes += [0xE9] + Array("\"}\r\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let report = DeckCheck.check([path])
    #expect(report.problems.isEmpty)
    #expect(report.cards == 1)
  }

  @Test func missingFileIsOneProblemAndOthersStillLoad() throws {
    let home = try TestHome()
    let good = try home.deck("good.jsonl", [cardLine("a")])
    let missing = home.url.appendingPathComponent("missing.jsonl").path
    let report = DeckCheck.check([missing, good])
    #expect(
      report.problems.map(\.description) == [
        "\(missing): cannot read the deck: No such file or directory"
      ])
    #expect(report.cards == 1)
  }

  @Test func aFolderIsOneProblem() throws {
    let home = try TestHome()
    #expect(
      DeckCheck.check([home.url.path]).problems.map(\.description) == [
        "\(home.url.path): not a regular file"
      ])
  }

  @Test func duplicateIdsAcrossFilesAreReported() throws {
    let home = try TestHome()
    let first = try home.deck("1.jsonl", [cardLine("a"), cardLine("b")])
    let second = try home.deck("2.jsonl", [cardLine("x"), cardLine("a")])
    #expect(
      DeckCheck.check([first, second]).problems.map(\.description) == [
        "\(second):2: duplicate id \"a\" replaces \(first):1"
      ])
  }
}

/// Lines JSON forbids are words as such, not as a wrong type.
@Suite struct JSONDiagnosticsTests {
  @Test func invalidStringsCommasNULsAndUTF16AreNotValidJSON() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "d.jsonl",
      [
        #"{"id":"a1","type":"t","title":"x\q","body":"b"}"#,
        #"{"id":"a2","type":"t","title":"\ud800","body":"b"}"#,
        #"{"id":"a3","type":"t","body":"b",}"#,
        "{\"id\":\"a4\",\"type\":\"t\",\"title\":\"x\u{0}y\",\"body\":\"b\"}",
        #"{"id":"a5","type":"t","title":7,"body":"b"}"#,
        #"{"id":"a6","type":"t","body":"fine, \"quoted\" ,}"}"#,
      ])
    let messages = DeckCheck.check([deck]).problems.map { "\($0.line ?? 0): \($0.message)" }
    #expect(
      messages == [
        #"1: not valid JSON: "title" is not a valid string"#,
        #"2: not valid JSON: "title" is not a valid string"#,
        "3: not valid JSON: a comma before } or ]",
        "4: not valid JSON: a NUL byte or a UTF-16 mark; decks are UTF-8",
        #"5: "title" must be a string"#,
      ])
    let utf16 = home.url.appendingPathComponent("u16.jsonl").path
    let text = #"{"id":"x","type":"t","body":"b"}"# + "\n"
    try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
      .write(to: URL(fileURLWithPath: utf16))
    let report = DeckCheck.check([utf16])
    #expect(report.cards == 0)
    #expect(report.problems.first?.message.contains("UTF-16") == true, "\(report.problems)")
  }
}
