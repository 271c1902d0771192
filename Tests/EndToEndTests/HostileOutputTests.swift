import Foundation
import Testing

/// What ctfo writes from untrusted text stays inert wherever it goes: deck problems on a
/// terminal, JSON read in a pager, CSV opened in a spreadsheet; and every size option is
/// bounded, with a clear error past its bounds.
@Suite struct HostileOutputTests {
  /// A card whose fields a spreadsheet would take for formulas, and C1 and bidi controls.
  static let deck =
    [
      #"{"deck":"t","types":{"fact":{"label":"Fact"}}}"#,
      #"{"id":"f1","type":"fact","title":"=1+2","body":"@SUM(A1)","source":"+cmd","url":"-2"}"#,
      #"{"id":"f2","type":"fact","title":"\tTab","body":"C1 \u009d]0;PWNED\u0007 \u009b2J end","source":"bidi \u202e txt"}"#,
    ].joined(separator: "\n") + "\n"

  /// Both cards shown by `ctfo next`, so that they are in the history.
  private func home() throws -> (CommandLine, String) {
    let cli = try CommandLine(bundled: false)
    let path = try cli.write("d.jsonl", Self.deck)
    let next = try cli.run(["--deck", path, "next", "-n", "2"])
    #expect(next.status == 0, "\(next.stderr)")
    return (cli, path)
  }

  @Test func historyJSONEscapesC1AndBidiControls() throws {
    let (cli, path) = try home()
    defer { cli.remove() }
    for format in [["--json"], ["--format", "jsonl"]] {
      let result = try cli.run(["--deck", path, "history"] + format)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.objects.count == 2, "\(result.stdout)")
      let raw = result.stdout.unicodeScalars
      for scalar in ["\u{9D}", "\u{9B}", "\u{202E}", "\u{7}"] as [Unicode.Scalar] {
        #expect(!raw.contains(scalar), "\(format): U+\(String(scalar.value, radix: 16))")
      }
      #expect(result.stdout.contains(#"\u009d]0;PWNED\u0007 \u009b2J"#), "\(result.stdout)")
      #expect(result.stdout.contains(#"bidi \u202e txt"#), "\(result.stdout)")
      // Read back, the text is as it was.
      let texts = result.objects.compactMap { $0["text"] as? String }
      #expect(texts.contains("C1 \u{9D}]0;PWNED\u{7} \u{9B}2J end"), "\(texts)")
    }
  }

  @Test func historyCSVCellsAreNeverFormulas() throws {
    let (cli, path) = try home()
    defer { cli.remove() }
    let result = try cli.run(["--deck", path, "history", "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    let cells = result.stdout.split(separator: "\r\n").dropFirst().flatMap {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    for formula in ["=1+2", "@SUM(A1)", "+cmd", "-2", "\tTab"] {
      #expect(cells.contains { $0 == "'" + formula }, "\(formula): \(result.stdout)")
    }
    #expect(
      !cells.contains { $0.first.map { "=+-@\t\r".contains($0) } ?? false }, "\(result.stdout)")
  }

  @Test func deckPreviewPrintsDeckProblemsSanitised() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write(
      "bad.jsonl",
      #"{"deck":"t","types":{"fact":{"colour":"red\u001b]0;PWNED\u0007\u001b[2J"}}}"# + "\n"
        + #"{"id":"f1","type":"fact","body":"x"}"# + "\n")
    let result = try cli.run(["deck", "preview", path, "--width", "60", "--height", "12"])
    #expect(result.status == 1, "a deck with a problem: \(result.stderr)")
    #expect(result.stdout.contains("unknown colour"), "\(result.stdout)")
    #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{7}"))
  }

  /// Every `--width` and `--height`, far past any screen: a usage error (64) that names the
  /// option and its bounds, never a crash or an allocation of gigabytes.
  @Test(arguments: [
    ["stats", "--width", "9223372036854775807"], ["stats", "--width", "2147483648"],
    ["stats", "--width", "1001"],
    ["deck", "preview", "DECK", "--width", "9223372036854775807"],
    ["deck", "preview", "DECK", "--height", "9223372036854775807"],
    ["next", "--width", "9223372036854775807"], ["next", "--height", "2147483648"],
    ["next", "--width", "0"],
  ])
  func sizeOptionsAreBounded(arguments: [String]) throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("d.jsonl", Self.deck)
    let deck = arguments.first == "deck" ? [] : ["--deck", path]
    let result = try cli.run(deck + arguments.map { $0 == "DECK" ? path : $0 }, limit: 30)
    let option = arguments[arguments.count - 2]
    #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
    #expect(result.stderr.contains("\(option) must be from "), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// The largest sizes allowed work.
  @Test func theLargestSizesWork() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("d.jsonl", Self.deck)
    for arguments in [
      ["stats", "--width", "1000"], ["next", "--width", "1000", "--height", "1000"],
      ["deck", "preview", path, "--width", "1000", "--height", "1000", "--id", "f1"],
    ] {
      let deck = arguments.first == "deck" ? [] : ["--deck", path]
      let result = try cli.run(deck + arguments, limit: 60)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
  }
}
