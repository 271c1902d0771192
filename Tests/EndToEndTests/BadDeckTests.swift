import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile decks through the release binary: special files and bad names are reported and
/// skipped, every command still works, and `next` words problems as `deck check` does.
@Suite struct BadDeckTests {
  /// The issue's deck: a type name and an id with a NUL, after a good card.
  static let nasty =
    [
      #"{"id":"a","type":"bt","title":"one","body":"b"}"#,
      #"{"id":"b","type":"bt\u0000","title":"two","body":"b"}"#,
      #"{"id":"a\u0000x","type":"bt","title":"three","body":"b"}"#,
      #"{"id":"c","type":"bt","title":"four","body":"b"}"#,
    ].joined(separator: "\n") + "\n"

  /// A read of /dev/zero would never end: `run`'s default limit catches that, and leaves a
  /// first run on a loaded machine (a dozen fdatasyncs) the time it takes.
  @Test func specialFilesAndBadNamesLeaveEveryCommandWorking() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write("decks/nasty.jsonl", Self.nasty)
    let fifo = cli.home + "/decks/fifo.jsonl"
    #expect(mkfifo(fifo, 0o600) == 0)
    let zero = cli.home + "/decks/zero.jsonl"
    try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
    let check = try cli.run(["deck", "check", "/dev/zero", "/dev/urandom", fifo, deck])
    #expect(check.status == 1)
    for problem in [
      "/dev/zero: not a regular file", "/dev/urandom: not a regular file",
      "\(fifo): not a regular file", #"\#(deck):2: "type" has a control character"#,
      #"\#(deck):3: "id" has a control character"#,
    ] {
      #expect(check.stderr.contains(problem), "\(check.stderr)")
    }
    for _ in 0..<2 {
      let next = try cli.run(["next", "-n", "2", "--json", "--deck", "/dev/zero"])
      #expect(next.status == 0, "\(next.stderr)")
      #expect(Set(next.objects.map { $0["title"] as! String }) == ["one", "four"])
      let types = try cli.run(["types", "--json"])
      #expect(types.objects.map { $0["cards"] as! Int } == [2])
      #expect(try cli.run(["history", "--json"]).status == 0)
    }
  }

  @Test func nextReportsDuplicatesAsDeckCheckDoes() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let lines = (0..<1001).map { #"{"id":"\#($0 % 3)","type":"t","body":"b\#($0)"}"# }
    let deck = try cli.write("dup.jsonl", lines.joined(separator: "\n") + "\n")
    let check = try cli.run(["deck", "check", deck])
    #expect(check.status == 1)
    #expect(check.stderr.split(separator: "\n").count == 998)
    let next = try cli.run(["next", "--deck", deck])
    #expect(next.status == 0)
    #expect(next.stderr == check.stderr)
  }
}
