import Foundation
import Testing

/// `ctfo history --reaction/--since/--until/--format` on a home where the app swiped cards of
/// hostile text: CSV that Python's csv module reads back, Markdown with a section per card and
/// no markup from the cards, JSON Lines equal to `--json`.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HistoryExportTests {
  /// Four cards of text that breaks naive CSV, Markdown and terminals.
  static let deck =
    [
      #"{"deck":"t","types":{"fact":{"label":"Fact","colour":"cyan"}}}"#,
      #"{"id":"f1","type":"fact","title":"Fact 01","body":"He said \"hi\", then left.\nA second line.","source":"Src, Inc.","url":"https://example.com/a?b=1&c=2"}"#,
      ##"{"id":"f2","type":"fact","title":"Fact 02","body":"<b>bold</b> *star* [x](y) \u001b[2J # not a heading","source":"# Source","url":"javascript:alert(1)"}"##,
      #"{"id":"f3","type":"fact","title":"Fact 03","body":"1. not a list\n- nor this","url":"https://example.com/3"}"#,
      #"{"id":"f4","type":"fact","title":"Fact 04","body":"Plain.\r\nCRLF line."}"#,
    ].joined(separator: "\n") + "\n"

  /// The home after the app swiped up, right and left on its first three cards and quit on
  /// the fourth; the titles by reaction.
  private static func swipedHome() async throws -> (AppUnderTest, [String: String]) {
    let app = try AppUnderTest(deck: deck)
    do {
      var reactions: [String: String] = [:]
      var title = try await app.waitForCard(after: nil)
      for (key, reaction) in [("Up", "CTFO"), ("Right", "TFU"), ("Left", "TIFB")] {
        reactions[reaction] = title
        try app.tmux.send(key)
        title = try await app.waitForCard(after: title)
      }
      reactions["none"] = title
      try app.tmux.send("q")
      try await app.tmux.waitFor(text: "exit=0")
      return (app, reactions)
    } catch {
      // The caller stops the app it gets back; one that never came back is stopped here.
      app.stop()
      throw error
    }
  }

  private static func history(_ app: AppUnderTest, _ arguments: [String]) throws
    -> CommandLine.Result
  {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = app.home.path
    let deckFile = app.home.appendingPathComponent("test.jsonl").path
    return try cli.run(["--deck", deckFile, "history"] + arguments)
  }

  @Test func formatsAndFiltersAgree() async throws {
    let (app, reactions) = try await Self.swipedHome()
    defer { app.stop() }
    let liked = try Self.history(app, ["--reaction", "ctfo", "--format", "jsonl"])
    #expect(liked.status == 0, "\(liked.stderr)")
    #expect(liked.objects.map { $0["title"] as? String } == [reactions["CTFO"]])
    #expect(liked.stdout == (try Self.history(app, ["--reaction", "CTFO", "--json"])).stdout)
    for (name, title) in reactions {
      let kept = try Self.history(app, ["--reaction", name.lowercased(), "--json"])
      #expect(kept.objects.map { $0["title"] as? String } == [title], "\(name)")
    }
    let all = try Self.history(app, ["--json"]).objects
    #expect(all.count == 4)
    #expect(try Self.history(app, ["--since", "2000-01-01", "--until", "2000-01-02", "--json"]).stdout.isEmpty)
    let today = String((all[0]["shown_at"] as? String ?? "").prefix(10))
    #expect(try Self.history(app, ["--since", today, "--until", today, "--json"]).objects.count == 4)

    // CSV: Python's csv module reads back each entry, its text without the ESC.
    let csv = try Self.history(app, ["--format", "csv"])
    #expect(csv.stdout.hasPrefix("index,shown_at,reaction,type,id,title,text,source,url\r\n"))
    let rows = try Self.pythonCSV(csv.stdout)
    #expect(rows.map { $0["title"] } == all.map { $0["title"] as? String })
    #expect(rows.map { $0["reaction"] } == all.map { ($0["reaction"] as? String) ?? "" })
    for (row, object) in zip(rows, all) {
      let text = (object["text"] as? String ?? "").replacingOccurrences(of: "\u{1B}", with: "")
        .replacingOccurrences(of: "\r", with: "")
      #expect(row["text"] == text, "\(row)")
      #expect(row["source"] == (object["source"] as? String ?? ""))
    }

    // Markdown: a section per card, the cards' markup escaped, only http(s) links.
    let markdown = try Self.history(app, ["--format", "markdown"]).stdout
    #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("## ") }.count == 4)
    #expect(!markdown.contains("\u{1B}") && !markdown.contains("\r"))
    #expect(markdown.contains(#"\<b\>bold\</b\> \*star\* \[x\](y)"#))
    #expect(markdown.contains(#"1\. not a list"#) && markdown.contains(#"\- nor this"#))
    #expect(markdown.contains("Source: Src, Inc., <https://example.com/a?b=1&c=2>"))
    #expect(markdown.contains(##"Source: \# Source"##) && !markdown.contains("javascript:"))
  }

  @Test func badValuesAreMistypedCommands() async throws {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    for (arguments, message) in [
      (["--reaction", "love"], "--reaction must be ctfo, tfu, tifb or none (got 'love')"),
      (["--since", "2026-02-30"], "--since must be an ISO 8601 date"),
      (["--until", "yesterday"], "--until must be an ISO 8601 date"),
      (["--since", "2026-11-28", "--until", "2026-11-27"], "--since must come before --until"),
      (["--format", "xml"], "--format must be text, jsonl, csv or markdown (got 'xml')"),
      (["--json", "--format", "csv"], "--json is --format jsonl"),
    ] {
      let result = try cli.run(["history"] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
  }

  /// The rows of `csv` as Python's csv.DictReader reads them.
  private static func pythonCSV(_ csv: String) throws -> [[String: String]] {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = [
      "-c",
      "import csv, io, json, sys; rows = csv.DictReader(io.TextIOWrapper(sys.stdin.buffer, "
        + "encoding='utf-8', newline='')); print(json.dumps(list(rows)))",
    ]
    let input = Pipe()
    let output = Pipe()
    python.standardInput = input
    python.standardOutput = output
    try python.run()
    input.fileHandleForWriting.write(Data(csv.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    return try JSONSerialization.jsonObject(with: data) as? [[String: String]] ?? []
  }
}
