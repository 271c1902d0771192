import Foundation
import Testing

/// What the command line says when it is used wrongly, or cannot do what it was asked: one
/// plain line and a failing status, never a silent success.
@Suite struct CommandErrorsTests {
  private let deck =
    #"{"id":"a1","type":"fact","body":"x"}"# + "\n"
    + #"{"id":"b1","type":"word","body":"y"}"# + "\n"

  @Test func aNegativeCountIsABadCountNotAMissingValue() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    for command in ["next", "history"] {
      let result = try cli.run([command, "-n", "-1"])
      #expect(result.status != 0)
      #expect(result.stderr.contains("-n must be 0 or more"), "\(command): \(result.stderr)")
    }
  }

  @Test func typesAreNamedByNameOrLabelInAnyCaseWithASuggestion() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("d.jsonl", deck)
    let disabled = try cli.run(["--deck", path, "disable", "FACT"])
    #expect(disabled.status == 0, "\(disabled.stderr)")
    let types = try cli.run(["--deck", path, "types", "--json"])
    #expect(types.objects.first { $0["name"] as? String == "fact" }?["enabled"] as? Bool == false)
    let typo = try cli.run(["--deck", path, "enable", "facs"])
    #expect(typo.status != 0)
    #expect(typo.stderr.contains("unknown type 'facs'; did you mean 'fact'?"), "\(typo.stderr)")
  }

  @Test func aMissingDeckIsAnError() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let result = try cli.run(["--deck", cli.home + "/missing.jsonl", "next"])
    #expect(result.status == 66)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains("cannot read the deck") && result.stderr.contains("missing.jsonl"))
  }

  @Test func anOutputThatCannotBeWrittenIsAnError() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("d.jsonl", deck)
    #expect(try cli.run(["--deck", path, "next"]).status == 0)
    for arguments in [["next"], ["types"], ["history"]] {
      let result = try cli.run(["--deck", path] + arguments, output: "/dev/full")
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stderr.contains("cannot write the output"), "\(arguments): \(result.stderr)")
    }
  }

  @Test func deckCheckSaysWhatItFoundWhenAllIsWell() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let path = try cli.write("d.jsonl", deck)
    let result = try cli.run(["deck", "check", path])
    #expect(result.status == 0)
    #expect(result.stdout == "2 cards in 1 deck, no problems: fact 1, word 1\n")
    let bad = try cli.write(
      "bad.jsonl",
      #"{"deck":"b","types":{"x":{"label":"X","colour":"mauve"}}}"# + "\n"
        + #"{"id":"b1","type":"x","body":"  "}"# + "\n")
    let refused = try cli.run(["deck", "check", bad])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("bad.jsonl:1: type \"x\": unknown colour \"mauve\""))
    #expect(refused.stderr.contains("bad.jsonl:2: \"body\" is empty"), "\(refused.stderr)")
  }

  @Test func aMistypedCommandGetsASuggestion() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let result = try cli.run(["histroy"])
    #expect(result.status == 64 && result.stdout.isEmpty)
    #expect(result.stderr.contains("unknown command 'histroy'; did you mean 'history'?"))
  }

  @Test func theVersionIsPrinted() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let result = try cli.run(["--version"])
    // The version and the commit the binary was built from: `0.3.0 (abc1234)`.
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+ \([0-9a-f]{7}\)\n/) != nil, "\(result.stdout)")
  }
}

/// Deck text reaches standard output sanitised in every format.
@Suite struct UntrustedOutputTests {
  @Test func labelsAndTitlesLoseBidiControlsAndTabsInJSON() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck =
      #"{"deck":"t","types":{"evil":{"label":"ab\u202Ecd"}}}"# + "\n"
      + #"{"id":"e1","type":"evil","title":"a\tb","body":"x"}"# + "\n"
    let path = try cli.write("t.jsonl", deck)
    let types = try cli.run(["--deck", path, "types", "--json"])
    #expect(!types.stdout.contains("\u{202E}") && !types.stdout.contains("\\u202e"))
    #expect(types.objects.first?["label"] as? String == "abcd", "\(types.stdout)")
    let next = try cli.run(["--deck", path, "next", "--json"])
    let title = next.objects.first?["title"] as? String
    #expect(title?.contains("\t") == false, "\(next.stdout)")
  }
}

/// A deck's problems are said once per change of the deck, and always by `deck check`.
@Suite struct DeckProblemReportTests {
  @Test func badLinesAreSaidWhenTheDeckChangesNotOnEveryRun() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let good = #"{"id":"a1","type":"fact","body":"x"}"#
    let path = try cli.write("decks/mine.jsonl", good + "\nnot json\n")
    let first = try cli.run(["next"])
    #expect(first.status == 0 && first.stderr.contains("mine.jsonl:2:"), "\(first.stderr)")
    let second = try cli.run(["next"])
    #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
    #expect(try cli.run(["deck", "check", path]).stderr.contains("mine.jsonl:2:"))
    _ = try cli.write("decks/mine.jsonl", good + "\n{\n")
    let changed = try cli.run(["next"])
    #expect(changed.stderr.contains("mine.jsonl:2:"), "\(changed.stderr)")
  }
}
