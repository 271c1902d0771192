import Foundation
import TestFixtures
import Testing

/// Your own cards through the real program: Debian's fortune files (fortunes-min), a fortune
/// file carrying escapes, a feed on loopback that changes while the app runs, and the progress
/// of a first read of a 1,000,000-card deck.
@Suite(.serialized) struct OwnCardsTests {
  static let fortunes = "/usr/share/games/fortunes"

  @Test func debiansFortuneFilesAreDecks() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    let riddles = try cli.run(
      ["--deck", "\(Self.fortunes)/riddles", "next", "-n", "3", "--seed", "1", "--width", "72"])
    #expect(riddles.status == 0, "\(riddles.stderr)")
    #expect(riddles.stdout.split(separator: "\n%\n").count == 3)
    #expect(riddles.stdout.hasPrefix("[Riddles]"), "\(riddles.stdout)")
    let fortunes = try cli.run(["--deck", "\(Self.fortunes)/fortunes", "next", "--seed", "2"])
    #expect(fortunes.status == 0 && fortunes.stdout.hasPrefix("[Fortunes]"), "\(fortunes.stderr)")
    let types = try cli.run(["--deck", "\(Self.fortunes)/riddles", "types"])
    #expect(types.stdout.contains("riddles") && types.stdout.contains("128  Riddles"))
    let check = try cli.run([
      "deck", "check", "\(Self.fortunes)/riddles", "\(Self.fortunes)/literature",
    ])
    #expect(check.status == 0)
    #expect(check.stdout == "390 cards in 2 decks, no problems: literature 262, riddles 128\n")
  }

  /// A fortune file in the decks folder, with escapes and a bidi override in its cookies and a
  /// label set in config.toml: nothing of them reaches the output raw.
  @Test func aFortuneFileInTheDecksFolderIsSanitisedAndLabelled() throws {
    let cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    _ = try cli.write("config.toml", "[labels]\nsayings = \"Sayings & such\"\n")
    _ = try cli.write(
      "decks/sayings.fortune",
      "Clear \u{1B}[2J the screen\n%\nTitle \u{1B}]0;owned\u{7}:\nBidi \u{202E}reversed\n\t\t-- Some\u{1B}[31mOne\n%\n"
    )
    let next = try cli.run(["next", "-n", "10", "--seed", "1"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stdout.contains("[Sayings & such]"), "\(next.stdout)")
    #expect(next.stdout.contains("-- Some[31mOne"), "\(next.stdout)")
    #expect(
      !next.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 7 || $0 == "\u{202E}" }
    )
    let types = try cli.run(["types"])
    #expect(types.stdout.contains("sayings") && types.stdout.contains("Sayings & such"))
  }

  /// A feed on loopback subscribed in config.toml: the app fetches it by itself, sends the
  /// validators back on the next fetch, and the entry added between fetches comes up.
  @Test func aFeedThatChangesShowsItsNewEntryInTheRunningApp() async throws {
    let first = """
      <rss version="2.0"><channel><title>Loop news</title>
      <item><title>Fact 11</title><guid>1</guid><description>The first entry.</description></item>
      </channel></rss>
      """
    let second = first.replacingOccurrences(
      of: "<item>",
      with:
        "<item><title>Fact 12</title><guid>2</guid><description>Fresh.</description></item><item>")
    final class Count: @unchecked Sendable {
      let lock = NSLock()
      var value = 0
    }
    let count = Count()
    let peer = try ScriptedPeer { request in
      let n = count.lock.withLock { () -> Int in
        count.value += 1
        return count.value
      }
      // Fetch again after a second (the test's floor): the first answer, a 304, then more.
      let cache = "Cache-Control: max-age=1\r\n"
      if n == 2 { return "HTTP/1.1 304 Not Modified\r\n\(cache)Content-Length: 0\r\n\r\n" }
      let body = n == 1 ? first : second
      return "HTTP/1.1 200 OK\r\nETag: \"v\(n)\"\r\n\(cache)Content-Length: \(body.utf8.count)"
        + "\r\n\r\n\(body)"
    }
    defer { peer.stop() }
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try "[feeds]\nloop = \"http://127.0.0.1:\(peer.port)/feed\"\n".write(
      to: home.appendingPathComponent("config.toml"), atomically: false, encoding: .utf8)
    let app = try AppUnderTest(
      deck: TestDeck.make(facts: 1, words: 0), environment: ["CTFO_TEST_FEED_FLOOR": "1"],
      home: home)
    defer { app.stop() }
    var card = try await app.waitForShownCard(after: nil)
    try await Poll.until("three fetches", seconds: 15) { peer.requests.count >= 3 }
    #expect(peer.requests[1].contains("If-None-Match: \"v1\""), "\(peer.requests[1])")
    #expect(peer.requests.allSatisfy { $0.contains("User-Agent: ctfo/") })
    var titles: [String] = [card.title]
    for _ in 0..<40 where !titles.contains("Fact 12") {
      try app.tmux.send("Right")
      card = try await app.waitForShownCard(after: card)
      titles.append(card.title)
    }
    #expect(titles.contains("Fact 12"), "\(titles)")
  }

  /// A first launch on a deck of 1,000,000 cards says where its read is while it reads (how
  /// soon is `make bench`'s to measure: a loaded machine moves it by seconds).
  @Test func aLongFirstReadShowsItsProgressInTheTerminal() async throws {
    let folder = try TemporaryFolder("ctfo-big")
    let big = folder.path("big.jsonl")
    let words = "the of and to in is was for on that with as by at from terminal swipe card feed"
      .split(separator: " ")
    var variants: [[UInt8]] = []
    var random = SystemRandomNumberGenerator()
    for _ in 0..<256 {
      variants.append(
        Array(
          (0..<24).map { _ in words.randomElement(using: &random)! }.joined(separator: " ").utf8))
    }
    FileManager.default.createFile(atPath: big, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
    var buffer: [UInt8] = []
    for i in 0..<1_000_000 {
      buffer += Array(#"{"id":"b\#(i)","type":"big","body":""#.utf8)
      buffer += variants[i & 255]
      buffer += Array("\"}\n".utf8)
      if buffer.count > 1 << 22 {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: buffer)
    try handle.close()
    let started = Date()
    let app = try AppUnderTest(deck: TestDeck.make(facts: 1, words: 0), arguments: ["--deck", big])
    defer { app.stop() }
    try await app.tmux.waitFor(text: "Reading big.jsonl ·", seconds: 5)
    print("progress seen after \(Date().timeIntervalSince(started)) s")
  }
}
