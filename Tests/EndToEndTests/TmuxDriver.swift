import Foundation

/// Drives a program in a detached tmux session on a private server: keys in, screen out.
///
///     let tmux = try TmuxDriver(command: "ctfo --deck d.jsonl", width: 80, height: 24)
///     defer { tmux.kill() }
///     try tmux.send("Right")
///     let screen = try await tmux.waitFor("Fact") { $0.contains("Fact") }
final class TmuxDriver {
  /// A failed tmux command, or a screen that never showed what was awaited.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let socket = "ctfo-e2e-\(UUID().uuidString)"

  /// Starts `command` (run by sh) in a `width` x `height` window. The pane stays after the
  /// program exits so that its last screen can still be read.
  init(command: String, width: Int, height: Int) throws {
    let status = try CleanSpawn.run([
      "tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y",
      "\(height)", command, ";", "set-option", "-g", "remain-on-exit", "on",
    ])
    guard status == 0 else { throw Failure(description: "tmux new-session failed: \(status)") }
  }

  /// Sends tmux key names ("Right", "Enter", "Escape", "q", "Space", "BSpace").
  func send(_ keys: String...) throws { try send(keys) }

  /// Sends `keys` in one `send-keys`: the app reads them typed ahead.
  func send(_ keys: [String]) throws { try tmux(["send-keys", "-t", "0"] + keys) }

  /// Types `text` literally, every character in one write ("llll": four keys at once).
  func type(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }

  /// The screen now, one string per row, trailing blanks removed; with `escapes`, the SGR
  /// sequences of the cells' styles too.
  func screen(escapes: Bool = false) throws -> [String] {
    try tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
      .components(separatedBy: "\n")
  }

  /// The columns of tmux's own grid where `character` stands on each of `rows` (screen rows from
  /// 0), found with copy mode's jump-forward: the cells as the terminal drew them, not as any
  /// width table counts them. Up to `most` columns a row, left to right; a row without the
  /// character gives none. The view is left as it was (copy mode is cancelled in the same
  /// command, so no key sent later reaches it).
  func columns(of character: String, rows: [Int], most: Int = 3) throws -> [Int: [Int]] {
    var chain = ["copy-mode", "-t", "0"]
    func then(_ words: String...) { chain += [";"] + words }
    for row in rows {
      then("send-keys", "-X", "-t", "0", "top-line")
      if row > 0 { then("send-keys", "-X", "-t", "0", "-N", "\(row)", "cursor-down") }
      then("send-keys", "-X", "-t", "0", "start-of-line")
      then("display-message", "-p", "-t", "0", "row \(row) #{copy_cursor_x}")
      then("send-keys", "-X", "-t", "0", "jump-forward", character)
      then("display-message", "-p", "-t", "0", "row \(row) #{copy_cursor_x}")
      for _ in 1..<most {
        then("send-keys", "-X", "-t", "0", "jump-again")
        then("display-message", "-p", "-t", "0", "row \(row) #{copy_cursor_x}")
      }
    }
    then("send-keys", "-X", "-t", "0", "cancel")
    var found: [Int: [Int]] = [:]
    var last: [Int: Int] = [:]
    for line in try tmux(chain).split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 3, let row = Int(parts[1]), let x = Int(parts[2]) else { continue }
      // The first value is the start of the row; a jump that finds nothing stays put.
      if let before = last[row], x != before { found[row, default: []].append(x) }
      if found[row] == nil { found[row] = [] }
      last[row] = x
    }
    return found
  }

  /// A tmux format value of the pane, e.g. "#{alternate_on}".
  /// Runs a tmux command on this server (`set-option`, `pipe-pane`, `show-buffer`...).
  @discardableResult
  func command(_ arguments: String...) throws -> String { try tmux(arguments) }

  func format(_ format: String) throws -> String {
    try tmux("display-message", "-p", "-t", "0", format).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  func resize(width: Int, height: Int) throws {
    try tmux("resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)")
  }

  /// Polls the screen until `condition` holds, failing after `seconds`: the other process
  /// decides when the screen changes, so this is waiting on it, not a fixed sleep.
  @discardableResult
  func waitFor(
    _ what: String, seconds: Double = 10, _ condition: ([String]) -> Bool
  ) async throws -> [String] {
    var last: [String] = []
    try await Poll.until(
      "\(what)", seconds: seconds, detail: { "; the screen was:\n" + last.joined(separator: "\n") }
    ) {
      last = try screen()
      return condition(last)
    }
    return last
  }

  /// Waits until some row contains `text`.
  @discardableResult
  func waitFor(text: String, seconds: Double = 10) async throws -> [String] {
    try await waitFor("'\(text)'", seconds: seconds) { $0.contains { $0.contains(text) } }
  }

  /// Stops the server and everything in it. Safe to call twice.
  func kill() { _ = try? tmux("kill-server") }

  @discardableResult
  private func tmux(_ arguments: String...) throws -> String { try tmux(arguments) }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", socket] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed: \(text)")
    }
    return text
  }
}

/// Waiting on another process: polls `condition` every 5 ms until it holds.
enum Poll {
  /// Fails after `seconds`, but only on a check made after the deadline: a test whose task was
  /// not scheduled for a while (two cooperative threads on CI, both blocked by tests that wait
  /// on a child process) still sees what the other process did meanwhile, instead of failing on
  /// a screen captured before it was starved.
  static func until(
    _ what: String, seconds: Double = 10, detail: () -> String = { "" },
    _ condition: () throws -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
      let late = ContinuousClock.now >= deadline
      if try condition() { return }
      if late { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw TmuxDriver.Failure(description: "timed out waiting for \(what)" + detail())
  }
}
