import Foundation
import Testing

/// The man page `make install` puts in `share/man/man1` names every command and exit status
/// the program has.
@Suite struct ManualTests {
  @Test func theManPageNamesEveryCommandAndTheVersion() throws {
    let page = try String(
      contentsOfFile: CommandLine.repositoryRoot + "/Resources/man/ctfo.1", encoding: .utf8)
    for command in [
      "next", "types", "enable", "disable", "history", "deck check", "pull", "status",
    ] {
      #expect(page.contains(".B ctfo \(command)"), "the synopsis has \(command)")
    }
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let version = try cli.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(page.contains("\"ctfo \(version)\""), "the page's header names version \(version)")
  }
}
