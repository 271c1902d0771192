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
  /// `arguments` go after the deck's; `input` is a file (a FIFO) for the app's standard input.
  init(
    deck: String, width: Int = 80, height: Int = 24, environment: [String: String] = [:],
    home existing: URL? = nil, arguments: [String] = [], input: String? = nil
  ) throws {
    let binary = try Self.binary()
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw TmuxDriver.Failure(
        description: "no ctfo binary at \(binary): run 'swift build -c release --product ctfo' "
          + "or set CTFO_BINARY")
    }
    home =
      existing
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let deckFile = home.appendingPathComponent("test.jsonl")
    try deck.write(to: deckFile, atomically: false, encoding: .utf8)
    let env = (["CTFO_HOME": home.path, "CTFO_BUNDLED_DECKS": ""].merging(environment) { $1 })
      .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
    // `swift test` hands NO_COLOR to its children: drop it, so each test chooses. The exit
    // status goes on a line of its own with explicit carriage returns: after a SIGKILL the tty
    // is still raw (no CR on LF) and the cursor anywhere, and "exit=137" must not wrap.
    let command =
      "env -u NO_COLOR -u DO_NOT_TRACK \(env) '\(binary)' --deck '\(deckFile.path)'"
      + arguments.map { " '\($0)'" }.joined() + (input.map { " < '\($0)'" } ?? "") + "; "
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

  /// The reactions the app's home records, by title (the newest row of each title), read with
  /// `ctfo history --json` on the app's home and deck. Run it after the app has quit: the
  /// writes of a swipe are not ordered with the next card's drawing.
  func recordedReactions(limit: Int = 1000) throws -> [String: String?] {
    var cli = try CommandLine(bundled: false)
    defer { cli.remove() }
    cli.environment["CTFO_HOME"] = home.path
    let deck = home.appendingPathComponent("test.jsonl").path
    let result = try cli.run(["--deck", deck, "history", "-n", "\(limit)", "--json"])
    guard result.status == 0 else {
      throw TmuxDriver.Failure(description: "ctfo history failed: \(result.stderr)")
    }
    var reactions: [String: String?] = [:]
    for row in result.objects {
      guard let title = row["title"] as? String, reactions[title] == nil else { continue }
      reactions[title] = .some(row["reaction"] as? String)
    }
    return reactions
  }

  /// Stops tmux and removes the home directory.
  /// Turns Word off in the settings: `s` opens them on "[x] Word", Down Space unchecks it
  /// ("[ ] Word"), Escape goes back to the feed.
  func turnWordOff() async throws {
    try tmux.send("s")
    try await tmux.waitFor(text: "[x] Word")
    try tmux.send("Down", "Space")
    try await tmux.waitFor(text: "[ ] Word")
    try tmux.send("Escape")
  }

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

  /// The card on screen by `title` (a pattern) and its number; nil unless exactly one of each
  /// shows: a capture during a slide-out, which shows two cards, would mix them.
  static func shownCard(_ screen: [String], title: String = #"(Fact|Word) \d\d"#) -> ShownCard? {
    let titles = matches(title, in: screen)
    let numbers = matches(#"#\d+(?= *│)"#, in: screen)
    guard titles.count == 1, numbers.count == 1 else { return nil }
    return ShownCard(title: titles[0], position: numbers[0])
  }

  /// Every match of `pattern` on the screen, row by row.
  static func matches(_ pattern: String, in screen: [String]) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return screen.flatMap { row in
      regex.matches(in: row, range: NSRange(row.startIndex..., in: row)).compactMap {
        Range($0.range, in: row).map { String(row[$0]) }
      }
    }
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

/// The card's box on a captured screen, and what is wrong with it.
///
/// Every character of a test deck's card and of the box takes one column, so a row's column is
/// its character's offset in the captured row.
struct CardBox {
  var top: Int
  var bottom: Int
  var left: Int
  var right: Int
  /// The text between the borders, row by row, spaces collapsed.
  var text: String

  /// Finds the box (the first row with "┌", down to the row with "└" below it).
  static func find(_ screen: [String]) -> CardBox? {
    let rows = screen.map(Array.init)
    guard let top = rows.firstIndex(where: { $0.contains("┌") }),
      let left = rows[top].firstIndex(of: "┌"), let right = rows[top].lastIndex(of: "┐"),
      let bottom = rows[(top + 1)...].firstIndex(where: { $0.contains("└") })
    else { return nil }
    let inner = rows[(top + 1)..<bottom].map { row in
      String(row.count > left + 1 ? row[(left + 1)..<min(right, row.count)] : [])
    }
    let text = inner.joined(separator: " ").split(separator: " ").joined(separator: " ")
    return CardBox(top: top, bottom: bottom, left: left, right: right, text: text)
  }

  /// What breaks "the card fits a `width`-column screen": the box is missing, a border leaves
  /// its column on some row or lies past the last column, a row is wider than the screen, or
  /// the title or body is not inside the box. Empty when the card is whole.
  static func problems(_ screen: [String], width: Int, title: String, body: String) -> [String] {
    guard let box = find(screen) else { return ["no card box"] }
    var problems: [String] = []
    let rows = screen.map(Array.init)
    if box.right >= width { problems.append("the right border is at column \(box.right)") }
    for (r, row) in rows.enumerated() where row.count > width {
      problems.append("row \(r) is \(row.count) wide")
    }
    func at(_ r: Int, _ c: Int) -> Character? { c < rows[r].count ? rows[r][c] : nil }
    if at(box.bottom, box.left) != "└" || at(box.bottom, box.right) != "┘" {
      problems.append("the bottom row is not └…┘ under ┌…┐: \(screen[box.bottom])")
    }
    for r in (box.top + 1)..<box.bottom {
      if at(r, box.left) != "│" || at(r, box.right) != "│" {
        problems.append("row \(r) has no │ at columns \(box.left) and \(box.right): \(screen[r])")
      }
      if rows[r].count > box.right + 1,
        rows[r][(box.right + 1)...].contains(where: { $0 != " " })
      {
        problems.append("row \(r) has text right of the box: \(screen[r])")
      }
    }
    if !box.text.contains(title) { problems.append("the title \(title) is not in the box") }
    if !box.text.contains(body) { problems.append("the body '\(body)' is not in the box") }
    return problems
  }
}

extension TestDeck {
  /// The body TestDeck.make gives the card titled `title`: "Fact 07" has "Body of fact 7.".
  static func body(of title: String) -> String {
    let number = Int(title.suffix(2)) ?? 0
    return title.hasPrefix("Fact") ? "Body of fact \(number)." : "Meaning of word \(number)."
  }
}
