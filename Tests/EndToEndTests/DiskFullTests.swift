import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A full disk: a small tmpfs as the home, filled while the app runs.
/// Swipes go on (each card shown before its history row can be written, numbered "unsaved"),
/// the app says it cannot save, nothing crashes; once space is freed every row and event is
/// written, and the outbox is neither recreated nor emptied. Mounting needs root (as `make
/// test` on CI runs).
@Suite(.serialized) struct DiskFullTests {
  private func run(_ command: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func full(_ screen: [String]) -> Bool {
    screen.contains { $0.contains("Cannot save") }
  }

  @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
  func aFullDiskNeitherBlocksSwipesNorLosesRowsOrEvents() async throws {
    let mount = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-full-\(UUID())")
    try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: mount) }
    #expect(try run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.path]) == 0)
    defer { _ = try? run("/bin/umount", ["-l", mount.path]) }
    let home = mount.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    // Analytics on, to a server that is not there: every swipe records events.
    try "server = \"http://127.0.0.1:1\"\n".write(
      to: home.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    let database = home.appendingPathComponent("state.sqlite").path
    let app = try AppUnderTest(deck: TestDeck.make(facts: 40, words: 40), home: home)
    defer { app.tmux.kill() }
    var drawn: [String] = []
    var title = try await app.waitForCard(after: nil)
    drawn.append(title)
    for _ in 0..<3 {
      try app.tmux.send("Right")
      title = try await app.waitForCard(after: title)
      drawn.append(title)
    }
    let inode = try FileManager.default.attributesOfItem(atPath: database)[.systemFileNumber]
    let before = Int(try sqlite(database, "SELECT COUNT(*) FROM analytics_events").first ?? "") ?? 0
    #expect(before > 0)

    // Fill the disk.
    let filler = mount.appendingPathComponent("filler").path
    _ = try run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=64k"])
    // Writes fail once SQLite needs a page the disk has not got: the write-ahead log may still
    // hold room for a few commits, so swipe until the app says so (6 swipes were once enough).
    var swipes = 0
    while try swipes < 6 || swipes < 60 && !full(app.tmux.screen()) {
      try app.tmux.send("Left")
      swipes += 1
      // The hint bar may say it cannot save: the card is told by its title alone.
      let previous = title
      let screen = try await app.tmux.waitFor("a card after \(previous)") { screen in
        AppUnderTest.cardTitle(screen).map { $0 != previous } ?? false
      }
      title = AppUnderTest.cardTitle(screen)!
      drawn.append(title)
    }
    let screen = try await app.tmux.waitFor(text: "Cannot save")
    #expect(screen.contains { $0.contains("unsaved") }, "\(screen)")

    // Space again: the writer's retries write what it holds, the message goes.
    try FileManager.default.removeItem(atPath: filler)
    try await app.tmux.waitFor("the rows to be written", seconds: 20) { screen in
      !screen.contains { $0.contains("Cannot save") }
    }
    try app.tmux.send("Up")
    title = try await app.waitForCard(after: title)
    drawn.append(title)
    try app.tmux.send("q")
    try await app.tmux.waitFor(text: "exit=0")

    #expect(try sqlite(database, "PRAGMA integrity_check") == ["ok"])
    #expect(try FileManager.default.attributesOfItem(atPath: database)[.systemFileNumber] as? Int
      == inode as? Int, "the database is the same file")
    let titles = Set(try sqlite(database, "SELECT title FROM history"))
    for title in drawn { #expect(titles.contains(title), "\(title) was drawn") }
    let indices = try sqlite(database, "SELECT COUNT(*), COUNT(DISTINCT idx), MIN(idx) FROM history")
    #expect(indices == ["\(drawn.count)|\(drawn.count)|0"], "one row per card, numbered in order")
    let after = Int(try sqlite(database, "SELECT COUNT(*) FROM analytics_events").first ?? "") ?? 0
    #expect(after > before, "the outbox kept what it had and gained the full disk's events")
    let focus = try sqlite(database, "SELECT COUNT(*) FROM analytics_events WHERE name = 'Focus'")
    #expect(focus == ["\(drawn.count)"], "a focus for every card shown, the quit's included")
  }
}
