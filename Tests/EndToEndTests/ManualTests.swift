import Foundation
import Testing

/// The man page `make install` puts in `share/man/man1` names every command and exit status
/// the program has.
@Suite struct ManualTests {
  @Test func theManPageNamesEveryCommandAndTheVersion() throws {
    let page = try String(
      contentsOfFile: CommandLine.repositoryRoot + "/Resources/man/ctfo.1", encoding: .utf8)
    for command in [
      "next", "types", "enable", "disable", "history", "deck check", "deck preview", "pull",
      "status",
    ] {
      #expect(page.contains(".B ctfo \(command)"), "the synopsis has \(command)")
    }
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    // `0.3.0 (abc1234)`: the page names the version, not the commit.
    let line = try cli.run(["--version"]).stdout
    let version = line.split(separator: " ").first.map(String.init) ?? ""
    #expect(line.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+ \([0-9a-f]{7}\)\n/) != nil, "\(line)")
    #expect(page.contains("\"ctfo \(version)\""), "the page's header names version \(version)")
  }
}
