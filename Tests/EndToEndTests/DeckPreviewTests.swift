import Foundation
import Testing

/// `ctfo deck preview` draws a card as the app does: its feed screen and its whole view, row
/// for row what tmux shows of the app running on the same deck at the same size.
@Suite struct DeckPreviewTests {
  static let deck =
    [
      #"{"deck":"t","types":{"fact":{"label":"Fact","colour":"cyan"}}}"#,
      #"{"id":"f1","type":"fact","title":"Fact 01","body":"Octopuses have three hearts; two pump blood through the gills and one through the rest of the body.","source":"Smithsonian","url":"https://example.com/octopus","reveal":"The third stops while it swims."}"#,
    ].joined(separator: "\n") + "\n"

  private static func trimmed(_ lines: [String]) -> [String] {
    lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  @Test func thePreviewIsWhatTheAppDraws() async throws {
    let app = try AppUnderTest(deck: Self.deck)
    defer { app.stop() }
    let feed = Self.trimmed(try await app.tmux.waitFor(text: "Fact 01"))
    try app.tmux.send("Enter")
    let whole = Self.trimmed(try await app.tmux.waitFor(text: "The third stops"))

    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = app.home.path
    let deckFile = app.home.appendingPathComponent("test.jsonl").path
    let preview = try cli.run(["deck", "preview", deckFile, "--width", "80", "--height", "24"])
    #expect(preview.status == 0, "\(preview.stderr)")
    let lines = preview.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "== f1 (card 1 of 1)")
    #expect(Array(lines.dropFirst().prefix(24)) == Array(feed.prefix(24)), "\(preview.stdout)")
    #expect(Array(lines.dropFirst(25).prefix(24)) == Array(whole.prefix(24)), "\(preview.stdout)")
  }

  @Test func problemsComeFirstAndAnUnknownIdIsAnError() throws {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let deck = try cli.write("d.jsonl", Self.deck + "not json\n")
    let preview = try cli.run(["deck", "preview", deck, "--width", "60", "--height", "16"])
    #expect(preview.status == 1)
    #expect(preview.stdout.hasPrefix("\(deck):3: not valid JSON\n== f1"), "\(preview.stdout)")
    let unknown = try cli.run(["deck", "preview", deck, "--id", "nope"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("no card has the id \"nope\""), "\(unknown.stderr)")
  }
}
