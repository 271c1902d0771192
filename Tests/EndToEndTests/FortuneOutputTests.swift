import Foundation
import Testing

/// `ctfo next` as fortune's users expect it: `%` between cards, the type's
/// label, the whole card when the output is not a terminal, answers only with --reveal, the
/// source where it gives nothing away, and fortune's -s and -l.
@Suite struct FortuneOutputTests {
  private let deck =
    [
      #"{"deck":"t","types":{"quiz":{"label":"Quiz"},"note":{"label":"Note"}}}"#,
      #"{"id":"q1","type":"quiz","title":"Capital?","body":"Which city?","reveal":"Canberra","source":"Atlas: Canberra","url":"https://example.org/canberra"}"#,
      #"{"id":"n1","type":"note","title":"Long","body":""# + String(repeating: "word ", count: 60)
        + #"","source":"Notebook","url":"https://example.org/n1"}"#,
    ].joined(separator: "\n") + "\n"

  private func run(_ extra: [String]) throws -> CommandLine.Result {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("t.jsonl", deck)
    return try cli.run(["--deck", path, "next", "-n", "2", "--seed", "1", "--width", "40"] + extra)
  }

  @Test func cardsAreSeparatedByAPercentLineUnderTheirLabels() throws {
    let result = try run([])
    #expect(result.status == 0, "\(result.stderr)")
    let blocks = result.stdout.split(separator: "\n%\n").map(String.init)
    #expect(blocks.count == 2)
    #expect(
      Set(blocks.map { $0.split(separator: "\n").first.map(String.init) ?? "" }) == [
        "[Quiz]", "[Note]",
      ])
  }

  @Test func theWholeCardIsPrintedWhenTheOutputIsNotATerminal() throws {
    let note = try run(["--json"]).objects.first { $0["id"] as? String == "n1" }
    let lines = try #require(note?["lines"] as? [String])
    #expect(lines.count > 8 && note?["truncated"] as? Bool == false)
    let cut = try run(["--json", "--height", "4"]).objects.first { $0["id"] as? String == "n1" }
    #expect(cut?["truncated"] as? Bool == true && (cut?["lines"] as? [String])?.count == 4)
  }

  @Test func answersAndTheirSourcesShowOnlyWithReveal() throws {
    let plain = try run([])
    #expect(!plain.stdout.contains("Canberra"), "\(plain.stdout)")
    // The card whose answer is hidden ends by saying how to see it; the
    // card with nothing hidden does not.
    let quiz = try #require(plain.stdout.split(separator: "\n%\n").first { $0.hasPrefix("[Quiz]") })
    #expect(
      quiz.hasSuffix("\n  (answer hidden: --reveal prints it)\n")
        || quiz.hasSuffix("\n  (answer hidden: --reveal prints it)"), "\(quiz)")
    #expect(plain.stdout.components(separatedBy: "--reveal").count == 2, "\(plain.stdout)")
    #expect(try !run(["--reveal"]).stdout.contains("answer hidden"))
    #expect(try !run(["--json"]).stdout.contains("answer hidden"))
    #expect(plain.stdout.contains("-- Notebook") && plain.stdout.contains("https://example.org/n1"))
    let revealed = try run(["--reveal"])
    #expect(revealed.stdout.contains("Canberra") && revealed.stdout.contains("-- Atlas: Canberra"))
    let json = try run(["--json"]).objects.first { $0["id"] as? String == "q1" }
    #expect(
      json?["reveal"] is NSNull && json?["source"] is NSNull && json?["label"] as? String == "Quiz")
    let shown = try run(["--json", "--reveal"]).objects.first { $0["id"] as? String == "q1" }
    #expect(
      shown?["reveal"] as? String == "Canberra"
        && shown?["url"] as? String == "https://example.org/canberra")
  }

  @Test func shortAndLongFilterAsFortunesDo() throws {
    let short = try run(["-n", "3", "-s", "--json"]).objects.compactMap { $0["id"] as? String }
    #expect(short == ["q1", "q1", "q1"])
    let long = try run(["-n", "3", "-l", "--json"]).objects.compactMap { $0["id"] as? String }
    #expect(long == ["n1", "n1", "n1"])
    let both = try run(["-s", "-l"])
    #expect(both.status != 0 && both.stderr.contains("-s and -l cannot be given together"))
  }
}

/// `ctfo next -n 1000000 | head -3`: cards are written as they are dealt,
/// the program stops when its reader goes away, and history holds only what was printed.
@Suite struct StreamingNextTests {
  @Test func aReaderThatGoesAwayStopsTheDealAndHistoryHoldsWhatWasPrinted() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    #expect(try cli.run(["next"]).status == 0)  // the decks are indexed
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "'\(cli.program)' next -n 1000000 | head -3; echo \"status=$?\""]
    var environment = ProcessInfo.processInfo.environment
    environment.merge(cli.environment) { _, new in new }
    shell.environment = environment
    let output = Pipe()
    shell.standardOutput = output
    let started = Date()
    try shell.run()
    // Timed to the first three lines, not to the end of the output (which waits for the shell).
    var data = Data()
    while data.count(where: { $0 == UInt8(ascii: "\n") }) < 3 {
      let more = output.fileHandleForReading.availableData
      guard !more.isEmpty else { break }
      data.append(more)
    }
    let seconds = Date().timeIntervalSince(started)
    data.append(output.fileHandleForReading.readDataToEndOfFile())
    shell.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 5 && lines[3] == "status=0", "\(text)")
    #expect(seconds < 5, "took \(seconds) s: the first lines came after the deal of a million cards")
    let history = try cli.run(["history", "-n", "1000000", "--json"]).objects
    #expect(history.count > 1 && history.count <= 1 + 2048, "\(history.count) rows")
  }
}

/// A cut line ends in `…`, or in `...` where the terminal may draw `…` two cells wide: a CJK
/// locale or `CTFO_ASCII=1`.
@Suite struct TruncationMarkOutputTests {
  @Test func theMarkFollowsTheLocale() throws {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let body = String(repeating: "word ", count: 40)
    let path = try cli.write("t.jsonl", #"{"id":"a","type":"t","body":""# + body + "\"}\n")
    let arguments = ["--deck", path, "next", "--width", "20", "--height", "3", "--json"]
    func lastLine() throws -> String {
      (try cli.run(arguments).objects.first?["lines"] as? [String])?.last ?? ""
    }
    cli.environment["LC_ALL"] = "C.UTF-8"
    #expect(try lastLine().hasSuffix("…"))
    cli.environment["LC_ALL"] = "ja_JP.UTF-8"
    #expect(try lastLine().hasSuffix("..."))
    cli.environment["LC_ALL"] = "C.UTF-8"
    cli.environment["CTFO_ASCII"] = "1"
    #expect(try lastLine().hasSuffix("..."))
  }
}
