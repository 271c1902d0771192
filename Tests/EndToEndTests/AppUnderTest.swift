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
  /// After the app exits, the pane shows "exit=N" and the terminal's modes. `home` reuses the
  /// state of an earlier run (a restart); by default the home is new.
  init(
    deck: String, width: Int = 80, height: Int = 24, environment: [String: String] = [:],
    home existing: URL? = nil
  ) throws {
    let binary = try Self.binary()
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw TmuxDriver.Failure(
        description: "no ctfo binary at \(binary): run 'swift build -c release --product ctfo' "
          + "or set CTFO_BINARY")
    }
    home =
      existing ?? FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let deckFile = home.appendingPathComponent("test.jsonl")
    try deck.write(to: deckFile, atomically: false, encoding: .utf8)
    let env = (["CTFO_HOME": home.path, "CTFO_BUNDLED_DECKS": ""].merging(environment) { $1 })
      .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
    // `swift test` hands NO_COLOR to its children: drop it, so each test chooses. The exit
    // status goes on a line of its own with explicit carriage returns: after a SIGKILL the tty
    // is still raw (no CR on LF) and the cursor anywhere, and "exit=137" must not wrap.
    let command =
      "env -u NO_COLOR \(env) '\(binary)' --deck '\(deckFile.path)'; "
      + "printf '\\r\\nexit=%s\\r\\n' $?; "
      + "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo; "
      + "exec sleep 600"
    tmux = try TmuxDriver(command: command, width: width, height: height)
  }

  /// The first child process of `pid` (the app started by the pane's shell), from /proc.
  static func child(of pid: Int32) -> Int32? {
    let path = "/proc/\(pid)/task/\(pid)/children"
    let children = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return children.split(separator: " ").first.flatMap { Int32($0) }
  }

  /// Stops tmux and removes the home directory.
  func stop() {
    tmux.kill()
    try? FileManager.default.removeItem(at: home)
  }

  /// The app's process id: the pane's shell's child.
  func appPID() throws -> Int32? {
    guard let shell = Int32(try tmux.format("#{pane_pid}")) else { return nil }
    return Self.child(of: shell)
  }

  /// The bytes the app's main thread (its run loop: keys and wake-ups) has read so far.
  func bytesReadByTheRunLoop() throws -> Int {
    guard let pid = try appPID() else { throw TmuxDriver.Failure(description: "no app") }
    let io = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/io", encoding: .utf8)
    let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
    return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) ?? 0
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

  /// The card on screen as the feed shows it: its title and its history position ("#3").
  struct ShownCard: Equatable {
    var title: String
    var position: String
  }

  static func shownCard(_ screen: [String]) -> ShownCard? {
    guard let title = cardTitle(screen) else { return nil }
    for row in screen {
      if let range = row.range(of: #"#\d+(?= *│)"#, options: .regularExpression) {
        return ShownCard(title: title, position: String(row[range]))
      }
    }
    return nil
  }

  /// Waits until the feed shows a card other than `previous`, telling cards apart by title
  /// and position: across a restart a new session may deal again the card an undo will bring
  /// back (one run in about 120 did, and waiting on the title alone then timed out).
  func waitForShownCard(after previous: ShownCard?) async throws -> ShownCard {
    let screen = try await tmux.waitFor("a card after \(previous?.title ?? "none")") { screen in
      screen.contains { $0.contains("→ TFU") }
        && Self.shownCard(screen).map { $0 != previous } ?? false
    }
    return Self.shownCard(screen)!
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
    var types: [String] = []
    if facts > 0 { types.append(#""fact":{"label":"Fact","colour":"cyan"}"#) }
    if words > 0 { types.append(#""word":{"label":"Word","colour":"magenta"}"#) }
    let header = #"{"deck":"t","types":{"# + types.joined(separator: ",") + "}}"
    let factLines = (0..<facts).map { i in
      card(
        id: "f\(i + 1)", type: "fact", title: "Fact \(twoDigits(i + 1))",
        body: "Body of fact \(i + 1).")
    }
    let wordLines = (0..<words).map { i in
      card(
        id: "w\(i + 1)", type: "word", title: "Word \(twoDigits(i + 1))",
        body: "Meaning of word \(i + 1).")
    }
    return ([header] + factLines + wordLines).joined(separator: "\n") + "\n"
  }

  private static func card(id: String, type: String, title: String, body: String) -> String {
    #"{"id":"\#(id)","type":"\#(type)","title":"\#(title)","body":"\#(body)"}"#
  }

  private static func twoDigits(_ i: Int) -> String { i < 10 ? "0\(i)" : "\(i)" }
}
