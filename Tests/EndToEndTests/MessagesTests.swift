import Foundation
import Testing

/// The words of the commands' messages: counts in the right number, a
/// summary of what loads even when a deck has problems, and `ctfo-server`'s refusals said in
/// one line with a status that fits, never its usage.
@Suite struct MessagesTests {
  @Test func deckCheckCountsInTheRightNumberAndSumsUpADeckWithProblems() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let one = try cli.write("one.jsonl", #"{"id":"a1","type":"fact","body":"x"}"# + "\n")
    let good = try cli.run(["deck", "check", one])
    #expect(good.status == 0 && good.stdout == "1 card in 1 deck, no problems: fact 1\n")
    let bad = try cli.write(
      "bad.jsonl", #"{"id":"a1","type":"fact","body":"x"}"# + "\n{oops\n{also bad\n")
    let checked = try cli.run(["deck", "check", bad])
    #expect(checked.status == 1)
    #expect(checked.stdout == "1 card in 1 deck, 2 problems: fact 1\n", "\(checked.stdout)")
    #expect(checked.stderr.contains("bad.jsonl:2:") && checked.stderr.contains("bad.jsonl:3:"))
    let folder = try cli.run(["deck", "check", cli.home])
    #expect(folder.status == 1 && folder.stderr == "\(cli.home): not a regular file\n")
  }

  @Test func aServerAddressRefusedNamesTheFlagOnce() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let result = try cli.run(["--server", "http://example.com", "pull"])
    #expect(result.status != 0)
    #expect(result.stderr.hasPrefix("ctfo: --server: plain http is refused"), "\(result.stderr)")
  }

  @Test func theServerSaysItsVersionAndRefusesADataErrorWithoutItsUsage() throws {
    let data = NSTemporaryDirectory() + "ctfo-server-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: data) }
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.program = ServerProcess.binary
    let version = try cli.run(["--version"])
    // The line ctfo prints: one version and commit for the two programs.
    let client = try CommandLine(bundled: false)
    defer { client.remove() }
    let clientVersion = try client.run(["--version"]).stdout
    #expect(version.status == 0 && version.stdout == clientVersion, "\(version.stderr)")
    #expect(version.stdout.hasSuffix(")\n"), "\(version.stdout)")
    let help = try cli.run(["--help"])
    // The overview and discussion, above the usage: no run of spaces within a line.
    let discussion = help.stdout.components(separatedBy: "USAGE:")[0]
    let words = discussion.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.status == 0 && words.contains("`ctfo-server events` counts"), "\(help.stdout)")
    #expect(!discussion.contains("  "), "\(discussion)")
    let score = try cli.run(["score", "nosuchcard", "1", "--data", data])
    #expect(score.status == 65)
    #expect(score.stderr == "ctfo-server: no card nosuchcard in the store\n", "\(score.stderr)")
  }

  @Test func aServerOnABusyPortSaysSoInOneLine() throws {
    let running = try ServerProcess(deck: #"{"id":"a1","type":"fact","body":"x"}"# + "\n")
    defer { running.stop() }
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.program = ServerProcess.binary
    let data = cli.home + "/server"
    let second = try cli.run(["--port", "\(running.port)", "--data", data], limit: 60)
    #expect(second.status == 69)
    let said = second.stderr.split(separator: "\n").filter { $0.hasPrefix("ctfo-server: ") }
    #expect(
      said == [
        "ctfo-server: cannot listen on 127.0.0.1:\(running.port): the address is in use "
          + "(another server there?); choose another with --port"
      ], "\(second.stderr)")
  }
}
