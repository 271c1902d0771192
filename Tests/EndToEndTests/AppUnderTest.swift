import Foundation

/// The release binary running on a test deck in a temporary CTFO_HOME, inside tmux.
final class AppUnderTest {
  let tmux: TmuxDriver
  let home: URL

  /// The binary: CTFO_BINARY (the Makefile sets it), else .build/release/ctfo.
  static func binary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["CTFO_BINARY"] { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/release/ctfo").path
  }

  /// Starts the app on `deck` (JSON Lines) at `width` x `height`, with extra environment.
  /// After the app exits, the pane shows "exit=N" and the terminal's modes.
  init(
    deck: String, width: Int = 80, height: Int = 24, environment: [String: String] = [:]
  ) throws {
    let binary = try Self.binary()
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw TmuxDriver.Failure(
        description: "no ctfo binary at \(binary): run 'swift build -c release --product ctfo' "
          + "or set CTFO_BINARY")
    }
    home = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let deckFile = home.appendingPathComponent("test.jsonl")
    try deck.write(to: deckFile, atomically: true, encoding: .utf8)
    let env = (["CTFO_HOME": home.path].merging(environment) { $1 })
      .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
    let command =
      "env \(env) '\(binary)' --deck '\(deckFile.path)'; echo \"exit=$?\"; "
      + "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo; "
      + "exec sleep 600"
    tmux = try TmuxDriver(command: command, width: width, height: height)
  }

  /// Stops tmux and removes the home directory.
  func stop() {
    tmux.kill()
    try? FileManager.default.removeItem(at: home)
  }

  /// The title of the card on screen ("Fact 07", "Word 12"), if one is shown.
  static func cardTitle(_ screen: [String]) -> String? {
    for row in screen {
      if let range = row.range(of: #"(Fact|Word) \d\d"#, options: .regularExpression) {
        return String(row[range])
      }
    }
    return nil
  }

  /// Waits until a card other than `previous` is on the feed screen and returns its title.
  func waitForCard(after previous: String?) async throws -> String {
    let screen = try await tmux.waitFor("a card after \(previous ?? "none")") { screen in
      screen.contains { $0.contains("→ TFU") }
        && Self.cardTitle(screen).map { $0 != previous } ?? false
    }
    return Self.cardTitle(screen)!
  }
}

/// Test decks: a header line, then cards titled "Fact 01"... and "Word 01"...
enum TestDeck {
  static func make(facts: Int, words: Int) -> String {
    let header =
      #"{"deck":"t","types":{"fact":{"label":"Fact","colour":"cyan"},"#
      + #""word":{"label":"Word","colour":"magenta"}}}"#
    let factLines = (1...max(facts, 1)).prefix(facts).map { i in
      card(id: "f\(i)", type: "fact", title: "Fact \(twoDigits(i))", body: "Body of fact \(i).")
    }
    let wordLines = (1...max(words, 1)).prefix(words).map { i in
      card(id: "w\(i)", type: "word", title: "Word \(twoDigits(i))", body: "Meaning of word \(i).")
    }
    return ([header] + factLines + wordLines).joined(separator: "\n") + "\n"
  }

  private static func card(id: String, type: String, title: String, body: String) -> String {
    #"{"id":"\#(id)","type":"\#(type)","title":"\#(title)","body":"\#(body)"}"#
  }

  private static func twoDigits(_ i: Int) -> String { i < 10 ? "0\(i)" : "\(i)" }
}
