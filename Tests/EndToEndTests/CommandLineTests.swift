import Foundation
import Testing

/// The command line's contract (issues 2 and 5), on the release binary.
@Suite struct CommandLineTests {
  @Test func nextGivesEveryBundledTypeItsShareWithoutRepeats() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    let types = try cli.run(["types", "--json"]).objects
    let counts = Dictionary(
      uniqueKeysWithValues: types.map { ($0["name"] as! String, $0["cards"] as! Int) })
    #expect(counts.count >= 6, "at least six bundled types: \(counts)")
    let n = 30_000
    let result = try cli.run(["next", "-n", "\(n)", "--json", "--seed", "7"])
    #expect(result.status == 0, "\(result.stderr)")
    let cards = result.objects
    #expect(cards.count == n)
    var byType: [String: [String]] = [:]
    for card in cards { byType[card["type"] as! String, default: []].append(card["id"] as! String) }
    let share = Double(n) / Double(counts.count)
    for (type, ids) in byType {
      #expect(abs(Double(ids.count) - share) <= share * 0.02, "\(type): \(ids.count) of \(n)")
      let cycle = counts[type]!
      #expect(
        roundsRepeating(ids, size: cycle).isEmpty, "\(type) repeated a card within a round")
    }
    // Not a terminal and no --height: every card is printed whole.
    for card in cards.prefix(50) {
      #expect(card["truncated"] as? Bool == false && !(card["lines"] as! [String]).isEmpty)
    }
  }

  @Test func aDisabledTypeNeverAppearsAndEnablingBringsItBack() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    let type = try #require(cli.run(["types", "--json"]).objects.first?["name"] as? String)
    #expect(try cli.run(["disable", type]).status == 0)
    let listed = try cli.run(["types", "--json"]).objects.first { $0["name"] as? String == type }
    #expect(listed?["enabled"] as? Bool == false)
    let cards = try cli.run(["next", "-n", "600", "--json"]).objects
    #expect(cards.count == 600)
    #expect(!cards.contains { $0["type"] as? String == type })
    #expect(try cli.run(["enable", type]).status == 0)
    let again = try cli.run(["next", "-n", "60", "--json"]).objects
    #expect(again.contains { $0["type"] as? String == type })
  }

  @Test func disablingEveryTypeIsRefused() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write("one.jsonl", #"{"id":"a1","type":"a","body":"x"}"# + "\n")
    let result = try cli.run(["disable", "a", "--deck", deck])
    #expect(result.status != 0)
    #expect(result.stderr.contains("At least one type must stay enabled."), "\(result.stderr)")
  }

  /// A refused change changes nothing: the types named before the refusal stay as they were;
  /// `enable --all` turns every type back on.
  @Test func aRefusedChangeChangesNothingAndEnableAllTurnsEveryTypeOn() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    func enabled() throws -> [String] {
      try cli.run(["types", "--json"]).objects.filter { $0["enabled"] as? Bool == true }
        .map { $0["name"] as! String }.sorted()
    }
    #expect(try cli.run(["disable", "joke", "haiku"]).status == 0)
    #expect(try enabled() == ["fact", "tip", "trivia", "word"])
    let refused = try cli.run(["disable", "fact", "tip", "trivia", "word"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("At least one type must stay enabled."), "\(refused.stderr)")
    #expect(try enabled() == ["fact", "tip", "trivia", "word"])
    let unknown = try cli.run(["enable", "all"])
    #expect(unknown.status == 1)
    #expect(
      unknown.stderr.contains(
        "unknown type 'all'. The types are fact, haiku, joke, tip, trivia, word.\n"),
      "\(unknown.stderr)")
    #expect(try cli.run(["enable", "--all"]).status == 0)
    #expect(try enabled() == ["fact", "haiku", "joke", "tip", "trivia", "word"])
    #expect(try cli.run(["enable", "--all", "fact"]).status == 64)
  }

  /// `--help` says what each reaction means where it first names them.
  @Test func theHelpSaysWhatEachReactionMeans() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let help = try cli.run(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    for words in ["right (TFU, liked it)", "left (TIFB, not for me)", "up (CTFO, loved it)"] {
      #expect(help.contains(words), "\(help)")
    }
  }

  @Test func historyListsTheCardsShownNewestFirst() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    let shown = try cli.run(["next", "-n", "5", "--json"]).objects.map { $0["id"] as! String }
    let history = try cli.run(["history", "-n", "5", "--json"]).objects
    #expect(history.map { $0["id"] as! String } == shown.reversed())
    #expect(history.map { $0["index"] as! Int } == [5, 4, 3, 2, 1])
  }

  /// The counts with a default (`next -n`, `history -n`, `pull --timeout`) hold no default value
  /// of their own, for the start-up's sake (DECISIONS.md, "Start-up"): the defaults the
  /// help gives still apply, and a bad value is still refused.
  @Test func theCountsDefaultAsTheirHelpSays() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    #expect(try cli.run(["next", "--json"]).objects.count == 1)
    #expect(try cli.run(["next", "-n", "24"]).status == 0)
    #expect(try cli.run(["history", "--json"]).objects.count == 20)
    #expect(try cli.run(["next", "--help"]).stdout.contains("How many cards (default 1)."))
    #expect(try cli.run(["history", "--help"]).stdout.contains("How many entries (default 20;"))
    let pull = try cli.run(["pull", "--help"]).stdout
    #expect(pull.contains("Seconds to wait for the server (default 10)."))
    #expect(!pull.contains("(default: 10)"), "the default said twice")
    let refused = try cli.run(["--server", "http://127.0.0.1:1", "pull", "--timeout", "0"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--timeout must be from 1 to 600 seconds (got 0)"))
  }

  /// The first card shown is #1 in the app and 1 in `ctfo history`.
  @Test func historyNumbersCardsFromOneAsTheAppDoes() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    _ = try cli.run(["next", "-n", "2"])
    let lines = try cli.run(["history"]).stdout.split(separator: "\n")
    #expect(lines.map { $0.split(separator: " ").first } == ["2", "1"], "\(lines)")
  }

  /// `--search` finds text in titles and bodies whatever the case of ASCII letters, takes `%`
  /// and `_` as themselves, and prints a title's control characters as nothing.
  @Test func historySearchFindsTitlesAndBodies() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write(
      "mine.jsonl",
      [
        #"{"id":"a","type":"q","title":"Grep \u001b[31mContext","body":"Lines around"}"#,
        #"{"id":"b","type":"q","title":"Cotton","body":"100% COTTON, 5_000 threads"}"#,
        #"{"id":"c","type":"q","title":"Plain","body":"1000 threads"}"#,
      ].joined(separator: "\n") + "\n")
    #expect(try cli.run(["next", "-n", "3", "--deck", deck]).status == 0)
    func found(_ text: String) throws -> [String] {
      let result = try cli.run(["history", "--search", text, "--json", "--deck", deck])
      #expect(result.status == 0, "\(result.stderr)")
      return result.objects.map { $0["id"] as! String }
    }
    #expect(try found("cotton") == ["b"])
    #expect(try found("0%") == ["b"])
    #expect(try found("5_0") == ["b"])
    #expect(try found("threads").sorted() == ["b", "c"])
    let plain = try cli.run(["history", "--search", "grep", "--deck", deck])
    #expect(plain.stdout.contains("Grep [31mContext") && !plain.stdout.contains("\u{1b}"))
    let long = try cli.run(["history", "--search", String(repeating: "x", count: 201)])
    #expect(long.status == 64 && long.stderr.contains("at most 200"), "\(long.stderr)")
  }

  @Test func theBundledDecksPassDeckCheck() throws {
    let cli = try CommandLine()
    defer { cli.remove() }
    let folder = CommandLine.repositoryRoot + "/Resources/decks"
    let decks = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".jsonl") }.map { folder + "/" + $0 }
    #expect(decks.count >= 6)
    let result = try cli.run(["deck", "check"] + decks)
    #expect(result.status == 0, "\(result.stderr)")
    let types = try cli.run(["types", "--json"]).objects
    #expect(types.count >= 6)
    for type in types { #expect((type["cards"] as! Int) >= 80, "\(type)") }
  }

  @Test func deckCheckNamesTheFileAndLineOfEveryBadLine() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write(
      "bad.jsonl",
      [
        #"{"id":"ok1","type":"t","body":"fine"}"#, "not json", #"{"type":"t","body":"no id"}"#,
        #"{"id":"x","type":"t","body":7}"#, #"{"id":"ok2","type":"t","body":"fine"}"#,
      ].joined(separator: "\n") + "\n")
    let result = try cli.run(["deck", "check", deck])
    #expect(result.status == 1)
    for line in [2, 3, 4] {
      #expect(result.stderr.contains("\(deck):\(line):"), "\(result.stderr)")
    }
    #expect(!result.stderr.contains("\(deck):1:") && !result.stderr.contains("\(deck):5:"))
    let next = try cli.run(["next", "-n", "4", "--json", "--deck", deck])
    #expect(Set(next.objects.map { $0["id"] as! String }) == ["ok1", "ok2"], "the good lines load")
  }

  @Test func globalOptionsAreAcceptedBeforeAndAfterTheSubcommand() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write("d.jsonl", #"{"id":"a1","type":"a","body":"hello"}"# + "\n")
    let after = try cli.run(["next", "--deck", deck, "--seed", "3", "--json"])
    let before = try cli.run(["--deck", deck, "--seed", "3", "next", "--json"])
    #expect(after.status == 0 && before.status == 0, "\(after.stderr) \(before.stderr)")
    #expect(after.objects.first?["id"] as? String == "a1")
    #expect(before.objects.first?["id"] as? String == "a1")
  }

  @Test func theSameSeedDealsTheSameCards() throws {
    let a = try CommandLine()
    let b = try CommandLine()
    defer {
      a.remove()
      b.remove()
    }
    let first = try a.run(["next", "-n", "40", "--json", "--seed", "11"]).objects.map {
      $0["id"] as! String
    }
    let second = try b.run(["next", "-n", "40", "--json", "--seed", "11"]).objects.map {
      $0["id"] as! String
    }
    #expect(first.count == 40 && first == second)
  }

  @Test func aShortRunDealsTheFirstCardsOfALongOneWithTheSameSeed() throws {
    // 200 cards are dealt on one thread, 1,000 through the concurrent feed; with pools of 7
    // and 30 cards, both start over many times while cards are in flight.
    let a = try CommandLine(bundled: false)
    let b = try CommandLine(bundled: false)
    defer {
      a.remove()
      b.remove()
    }
    let lines = { (type: String, n: Int) in
      (0..<n).map { #"{"id": "\#(type)\#($0)", "type": "\#(type)", "body": "b"}"# }
    }
    let deck = (lines("x", 7) + lines("y", 30)).joined(separator: "\n")
    let ids = { (cli: CommandLine, n: Int) throws -> [String] in
      let path = try cli.write("small.jsonl", deck)
      return try cli.run(["next", "-n", "\(n)", "--json", "--seed", "5", "--deck", path]).objects
        .map { $0["id"] as! String }
    }
    let short = try ids(a, 200)
    let long = try ids(b, 1_000)
    #expect(short.count == 200 && long.count == 1_000)
    #expect(Array(long.prefix(200)) == short)
    // Agreeing is not enough (both paths share one engine): the spec's rule holds on its own.
    for (type, size) in [("x", 7), ("y", 30)] {
      #expect(
        roundsRepeating(long.filter { $0.hasPrefix(type) }, size: size).isEmpty,
        "every round of \(type) deals each of its \(size) cards once")
    }
  }

  /// The rounds belong to the home, not the process: run after run of
  /// `ctfo next` on one home shows each card of a type once before any comes again, and the
  /// types take turns. (Each run dealt afresh: the first repeat came within a few runs.)
  @Test func runsOfNextOnOneHomeShowEveryCardOfATypeBeforeAnyAgain() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let lines = { (type: String, n: Int) in
      (0..<n).map { #"{"id": "\#(type)\#($0)", "type": "\#(type)", "body": "b"}"# }
    }
    let deck = try cli.write(
      "small.jsonl", (lines("x", 7) + lines("y", 30)).joined(separator: "\n"))
    var ids: [String] = []
    for _ in 0..<74 {
      let result = try cli.run(["next", "--json", "--deck", deck])
      #expect(result.status == 0, "\(result.stderr)")
      ids += result.objects.map { $0["id"] as! String }
    }
    for (type, size) in [("x", 7), ("y", 30)] {
      let shown = ids.filter { $0.hasPrefix(type) }
      #expect(shown.count == 37, "\(type): the types take turns")
      #expect(roundsRepeating(shown, size: size).isEmpty, "\(type): \(shown)")
    }
  }

  /// The rounds (consecutive runs of `size` cards of one type, in deal order) that deal a card
  /// twice: none, when every round is a permutation of the type's cards (feed-logic.md).
  private func roundsRepeating(_ ids: [String], size: Int) -> [Int] {
    stride(from: 0, to: ids.count - size + 1, by: size).filter {
      Set(ids[$0..<$0 + size]).count != size
    }.map { $0 / size }
  }

  @Test func aBadConfigValueNamesTheKeyAndTheAllowedValues() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    _ = try cli.write("config.toml", "on-replace = \"sometimes\"\n")
    let result = try cli.run(["types"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("on-replace"))
    #expect(result.stderr.contains("clear-tombstones") && result.stderr.contains("ask-user"))
    let flag = try cli.run(["types", "--undo-limit", "-3"])
    #expect(flag.status != 0 && flag.stderr.contains("undo-limit"))
  }

  @Test func theAppRefusesToStartWithoutATerminal() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write("one.jsonl", #"{"id":"a1","type":"a","body":"x"}"# + "\n")
    let result = try cli.run(["--deck", deck])
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("ctfo next"))
  }

  @Test func untrustedTextNeverReachesTheOutputRaw() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write(
      "evil.jsonl",
      #"{"id":"e1","type":"t","title":"\u001b[31mred\u0007","body":"bell\u0007 esc\u001b]0;title\u0007 bidi\u202e done"}"#
        + "\n")
    let result = try cli.run(["next", "--deck", deck, "--width", "60", "--height", "12"])
    #expect(result.status == 0)
    for bad in ["\u{1B}", "\u{07}", "\u{202E}"] { #expect(!result.stdout.contains(bad)) }
    #expect(result.stdout.contains("done"))
  }

  /// The parse skips ArgumentParser's completion-script probe unless an argument asks for a
  /// script (`CTFO.parseSkippingTheCompletionProbe`): the scripts still come, in every form,
  /// and the usage lines and help, printed after the parse, name the command as always.
  @Test func completionScriptsHelpAndUsageSurviveTheShortParse() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let bash = try cli.run(["--generate-completion-script", "bash"])
    #expect(bash.status == 0 && bash.stdout.hasPrefix("#!/bin/bash"), "\(bash.stderr)")
    #expect(bash.stdout.contains("history") && bash.stdout.contains("--undo-limit"))
    let zsh = try cli.run(["--generate-completion-script=zsh"])
    #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef ctfo"), "\(zsh.stderr)")
    let fish = try cli.run(["--generate-completion-script", "fish"])
    #expect(fish.status == 0 && fish.stdout.contains("complete -c 'ctfo'"), "\(fish.stderr)")
    let bad = try cli.run(["next", "-n", "x"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("\nUsage: ctfo next "), "\(bad.stderr)")
    let help = try cli.run(["next", "--help"])
    #expect(help.status == 0 && help.stdout.contains("USAGE: ctfo next "), "\(help.stdout)")
    let helpCommand = try cli.run(["help", "history"])
    #expect(helpCommand.stdout.contains("USAGE: ctfo history "), "\(helpCommand.stdout)")
  }
}
