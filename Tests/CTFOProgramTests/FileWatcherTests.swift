import CTFOProgram
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of its own under /tmp (mkdtemp), removed when the value goes.
private final class Scratch {
  let root: String

  init() throws {
    var template = Array("/tmp/ctfo-filewatcher-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    root = made
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// Makes the folder `relative` and returns its path.
  func folder(_ relative: String) throws -> String {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

/// Writes `text` to `path` in place (open, write, close: one `IN_CLOSE_WRITE`).
private func write(_ path: String, _ text: String = "{}\n") throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
  defer { close(fd) }
  let bytes = Array(text.utf8)
  guard write(fd, bytes, bytes.count) == bytes.count else {
    throw POSIXError(.init(rawValue: errno) ?? .EIO)
  }
}

/// A watcher with its `onChange` counted on a semaphore, one for deck changes and one for
/// state changes.
private struct Watched {
  let watcher: FileWatcher
  let woken: DispatchSemaphore
  let stateWoken: DispatchSemaphore

  init?(files: [String] = [], folders: [String] = [], stateFolder: String? = nil) {
    let woken = DispatchSemaphore(value: 0)
    let stateWoken = DispatchSemaphore(value: 0)
    guard
      let watcher = FileWatcher(
        files: files, folders: folders, stateFolder: stateFolder,
        onChange: { change in
          // The state first: a test woken for decks then sees a state change of the same batch.
          if change.contains(.state) { stateWoken.signal() }
          if change.contains(.decks) { woken.signal() }
        })
    else { return nil }
    self.watcher = watcher
    self.woken = woken
    self.stateWoken = stateWoken
  }

  /// The paths reported, gathered on each `onChange` until `expected` are all in, or until 5 s
  /// pass (the failure bound: it returns as soon as the events arrive). Each batch must name
  /// each path once, sorted.
  func changes(until expected: Set<String>) -> Set<String> {
    let deadline = DispatchTime.now() + .seconds(5)
    var seen = Set<String>()
    while !expected.isSubset(of: seen) {
      guard woken.wait(timeout: deadline) == .success else { break }
      let batch = watcher.takeChanged()
      #expect(batch == Set(batch).sorted(), "each path once, sorted")
      seen.formUnion(batch)
    }
    return seen
  }
}

@Suite struct FileWatcherTests {
  @Test func aDeckWrittenIntoAWatchedFolderIsReported() throws {
    let scratch = try Scratch()
    let decks = try scratch.folder("decks")
    let watched = try #require(Watched(folders: [decks]))
    let deck = decks + "/facts.jsonl"
    try write(deck)
    #expect(watched.changes(until: [deck]) == [deck])
  }

  /// vim's way: a new file renamed over the old one, whose inode a file watch would follow.
  @Test func aWatchedFileReplacedByRenameIsReported() throws {
    let scratch = try Scratch()
    let folder = try scratch.folder("mine")
    let deck = folder + "/deck.jsonl"
    try write(deck)
    let watched = try #require(Watched(files: [deck]))
    try write(folder + "/deck.jsonl.tmp", "{\"id\": 2}\n")
    #expect(rename(folder + "/deck.jsonl.tmp", deck) == 0)
    #expect(watched.changes(until: [deck]) == [deck])
  }

  /// Two files of one folder (watched once): one deleted, the other moved out of sight.
  @Test func watchedFilesDeletedOrMovedAwayAreReported() throws {
    let scratch = try Scratch()
    let folder = try scratch.folder("mine")
    let elsewhere = try scratch.folder("elsewhere")
    let gone = folder + "/gone.jsonl"
    let moved = folder + "/moved.jsonl"
    try write(gone)
    try write(moved)
    let watched = try #require(Watched(files: [gone, moved]))
    #expect(unlink(gone) == 0)
    #expect(rename(moved, elsewhere + "/moved.jsonl") == 0)
    #expect(watched.changes(until: [gone, moved]) == [gone, moved])
  }

  /// The ignored files go first: their events come before the watched one's, so once it is
  /// reported, any of theirs would have been too.
  @Test func otherFilesAreIgnored() throws {
    let scratch = try Scratch()
    let decks = try scratch.folder("decks")
    let mine = try scratch.folder("mine")
    let flagged = mine + "/flagged.jsonl"
    try write(flagged)
    try FileManager.default.createDirectory(
      atPath: decks + "/folder", withIntermediateDirectories: false)
    try FileManager.default.createDirectory(
      atPath: decks + "/nested", withIntermediateDirectories: false)
    let watched = try #require(Watched(files: [flagged], folders: [decks]))
    for name in ["notes.txt", ".facts.jsonl.swp", "4913", "facts.jsonl~", "jsonl"] {
      try write(decks + "/" + name)
    }
    try write(decks + "/nested/deep.jsonl")  // Not directly in the folder.
    #expect(rename(decks + "/folder", decks + "/folder.jsonl") == 0)  // A folder, not a deck.
    try write(mine + "/sibling.jsonl")  // The folder of a --deck file is no decks folder.
    try write(mine + "/flagged.jsonl.swp")
    try write(flagged)
    #expect(watched.changes(until: [flagged]) == [flagged])
  }

  @Test func takeChangedClearsAndAMissingFolderIsSkipped() throws {
    let scratch = try Scratch()
    let decks = try scratch.folder("decks")
    let watched = try #require(
      Watched(
        files: [scratch.root + "/missing/deck.jsonl"],
        folders: [scratch.root + "/absent", decks + "//"]))
    let first = decks + "/a.jsonl"
    try write(first)
    #expect(watched.changes(until: [first]) == [first], "trailing slashes dropped")
    #expect(watched.watcher.takeChanged() == [])
    let second = decks + "/b.jsonl"
    try write(second)
    #expect(watched.changes(until: [second]) == [second])
  }

  /// A file that is both a --deck file and a deck of a watched folder: one watch, one path.
  @Test func aFolderWatchedTwiceReportsEachPathOnce() throws {
    let scratch = try Scratch()
    let decks = try scratch.folder("decks")
    let deck = decks + "/both.jsonl"
    try write(deck)
    let watched = try #require(Watched(files: [deck], folders: [decks, decks + "/"]))
    try write(deck)
    try write(deck)
    let other = decks + "/other.jsonl"
    try write(other)
    #expect(watched.changes(until: [deck, other]) == [deck, other])
  }

  /// Once the watcher goes its thread ends, reading no more: a second watcher of the folder
  /// sees the change, the first one's `onChange` is never called.
  @Test func aWatcherThatGoesStops() throws {
    let scratch = try Scratch()
    let decks = try scratch.folder("decks")
    let woken = DispatchSemaphore(value: 0)
    var gone = FileWatcher(files: [], folders: [decks], onChange: { _ in woken.signal() })
    #expect(gone != nil)
    gone = nil
    let watched = try #require(Watched(folders: [decks]))
    let deck = decks + "/after.jsonl"
    try write(deck)
    #expect(watched.changes(until: [deck]) == [deck])
    #expect(woken.wait(timeout: .now()) == .timedOut)
  }

  /// A file of the state folder written and closed (a command's commit) is a state change, and
  /// no deck change: a `*.jsonl` there is no deck unless the folder is a decks folder too.
  @Test func aFileWrittenInTheStateFolderIsAStateChange() throws {
    let scratch = try Scratch()
    let state = try scratch.folder("state")
    let decks = try scratch.folder("decks")
    let watched = try #require(Watched(folders: [decks], stateFolder: state + "/"))
    try write(state + "/state.sqlite")
    #expect(watched.stateWoken.wait(timeout: .now() + .seconds(5)) == .success)
    try write(state + "/notes.jsonl")
    #expect(watched.stateWoken.wait(timeout: .now() + .seconds(5)) == .success)
    let deck = decks + "/facts.jsonl"
    try write(deck)
    #expect(watched.changes(until: [deck]) == [deck], "only the decks folder's deck")
  }

  /// A folder that holds both the decks and the state, watched once: a deck saved there is a
  /// deck change and a state change; a removal is a deck change only.
  @Test func aFolderOfDecksAndStateReportsBoth() throws {
    let scratch = try Scratch()
    let home = try scratch.folder("home")
    let deck = home + "/facts.jsonl"
    try write(deck)
    let watched = try #require(Watched(folders: [home], stateFolder: home))
    #expect(unlink(deck) == 0)
    #expect(watched.changes(until: [deck]) == [deck])
    #expect(watched.stateWoken.wait(timeout: .now()) == .timedOut, "a deletion is no commit")
    try write(deck)
    #expect(watched.changes(until: [deck]) == [deck])
    #expect(watched.stateWoken.wait(timeout: .now() + .seconds(5)) == .success)
  }
}
