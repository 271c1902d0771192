import Foundation
import Testing

/// The whole card shows the link, and `o` hands it to `$BROWSER` as one
/// argument, with no shell in between, in the release binary.
@Suite(.serialized) struct OpenLinkTests {
  /// Shell metacharacters in the link: a shell would run `id` or cut the link at `;` or `&`.
  static let url = "https://example.org/a?b=1&c=$(id);x'y"

  static let deck = """
    {"deck":"t","types":{"fact":{"label":"Fact","colour":"cyan"}}}
    {"id":"f1","type":"fact","title":"Fact 01","body":"Body.","source":"Test source",\
    "url":"\(url)"}

    """

  /// A folder with `browser`, a script that writes its argument count and arguments to `out`.
  private func browserFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("ctfo-browser-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("browser")
    let out = folder.appendingPathComponent("out").path
    try "#!/bin/sh\nprintf '%s\\n' \"$#\" \"$@\" > '\(out).tmp' && mv '\(out).tmp' '\(out)'\n"
      .write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return folder
  }

  @Test func oOpensTheLinkWithBrowserAsOneArgument() async throws {
    let folder = try browserFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let browser = folder.appendingPathComponent("browser").path
    let app = try AppUnderTest(deck: Self.deck, environment: ["BROWSER": browser])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Enter: more")
    try app.tmux.send("Enter")
    let whole = try await app.tmux.waitFor(text: "o open link")
    let source = whole.firstIndex { $0.contains("Test source") }
    #expect(source.map { whole[$0 + 1].contains(Self.url) } == true, "\(whole)")
    try app.tmux.send("o")
    let out = folder.appendingPathComponent("out")
    try await Poll.until("the browser's output") {
      FileManager.default.fileExists(atPath: out.path)
    }
    #expect(try String(contentsOf: out, encoding: .utf8) == "1\n\(Self.url)\n")
    try await app.tmux.waitFor(text: "o open link")
  }

  @Test func aBrowserThatFailsIsAMessage() async throws {
    let app = try AppUnderTest(deck: Self.deck, environment: ["BROWSER": "false"])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Enter: more")
    try app.tmux.send("Enter")
    try await app.tmux.waitFor(text: "o open link")
    try app.tmux.send("o")
    try await app.tmux.waitFor(text: "false could not open the link (status 1)")
  }
}
