import Decks
import Dispatch
import FeedCore
import Foundation
import Store
import Synchronization
import TestFixtures
import Testing

@Suite struct AppendShownTests {
  @Test func appendsHistoryAfterTheNewestRowInOneTransaction() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "a.jsonl", [cardLine("a1", type: "fact"), cardLine("a2", type: "word")])
    _ = try home.index.sync(decks: [deck])
    try home.state.append([ShownRecord(cardID: "a1", type: "fact", title: nil, shownAt: 1)])
    let reader = home.index.reader()
    let cards = [
      try #require(try reader.card(type: "fact", ordinal: 0)),
      try #require(try reader.card(type: "word", ordinal: 0)),
    ]
    let written = try home.state.appendShown(cards, time: 42)
    #expect(written.map(\.index) == [1, 2])
    let history = try home.state.history(limit: 10)
    #expect(history.map(\.index) == [2, 1, 0])
    #expect(history.prefix(2).map(\.cardID) == cards.reversed().map(\.id))
    #expect(history.prefix(2).allSatisfy { $0.shownAt == 42 && $0.reaction == nil })
  }

  @Test func aTransactionThatThrowsWritesNothingAndInnerOnesJoinTheOuter() throws {
    struct Stop: Error {}
    let home = try TestHome()
    let deck = try home.deck("a.jsonl", [cardLine("a1", type: "fact")])
    _ = try home.index.sync(decks: [deck])
    let (database, state, reader) = (home.database, home.state, home.index.reader())
    #expect(throws: Stop.self) {
      try database.transaction {
        let card = try #require(try reader.card(type: "fact", ordinal: 0))
        _ = try state.appendShown([card, card], time: 1)
        throw Stop()
      }
    }
    #expect(try home.state.history(limit: 10).isEmpty)
    let written = try database.transaction {
      let card = try #require(try reader.card(type: "fact", ordinal: 0))
      #expect(try state.disabledTypes().isEmpty, "a read inside joins the transaction")
      return try state.appendShown([card], time: 1) + state.appendShown([card], time: 2)
    }
    #expect(written.map(\.index) == [0, 1])
    #expect(try home.state.history(limit: 10).map(\.index) == [1, 0])
  }

  /// `ctfo next` records its cards with a commit that does not wait for the disk; the
  /// connection's other commits (a deck sync's) go on waiting for it, alone or in a transaction.
  @Test func theWritersOtherCommitsStillWaitForTheDisk() throws {
    let home = try TestHome()
    let card = Card(id: "a1", type: "fact", body: "B")
    _ = try home.state.appendShown([card], time: 1)
    #expect(try home.database.pragma("synchronous") == "2")
    _ = try home.database.transaction { try home.state.appendShown([card], time: 2) }
    #expect(try home.database.pragma("synchronous") == "2")
    #expect(try home.state.history(limit: 10).map(\.index) == [1, 0])
  }
}

@Suite struct ReaderConnectionTests {
  @Test func aReadDoesNotWaitForAnOpenWriteTransaction() throws {
    let home = try TestHome()
    let (database, state) = (home.database, home.state)
    try state.append([ShownRecord(cardID: "a", type: "fact", title: nil, shownAt: 1)])
    let inside = DispatchSemaphore(value: 0)
    let read = DispatchSemaphore(value: 0)
    let sawTheRead = Mutex(false)
    let group = DispatchGroup()
    DispatchQueue(label: "writer").async(group: group) {
      try? database.transaction {
        try state.append([ShownRecord(cardID: "b", type: "fact", title: nil, shownAt: 2)])
        inside.signal()
        let done = read.wait(timeout: .now() + 10) == .success
        sawTheRead.withLock { $0 = done }
      }
    }
    #expect(inside.wait(timeout: .now() + 10) == .success)
    #expect(try state.history(limit: 10).map(\.cardID) == ["a"], "the last commit only")
    read.signal()
    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(sawTheRead.withLock { $0 }, "the read ended inside the transaction")
    #expect(try state.history(limit: 10).map(\.cardID) == ["b", "a"])
  }
}

@Suite struct FileStampTests {
  @Test func tellsAMissingFileAFolderAndEveryChangeOfAFile() throws {
    let home = try TestHome()
    let path = home.url.path + "/f.txt"
    #expect(FileStamp.of(path) == .missing)
    #expect(FileStamp.of(home.url.path) == nil, "a folder")
    try home.deck("f.txt", ["one"])
    let first = try #require(FileStamp.of(path))
    #expect(first.size == 4 && first.inode != 0)
    #expect(FileStamp.ofReadable(path) == first)
    try home.setModified(path, 1_000.5)
    let touched = try #require(FileStamp.of(path))
    #expect(touched.mtime == 1_000.5 && touched != first)
    try home.deck("f.txt", ["three"])
    #expect(FileStamp.of(path)?.size == 6)
    #expect(FileStamp.ofReadable(home.url.path + "/none") == nil)
  }
}

@Suite struct WALTests {
  @Test func leavesASmallWALForTheNextOpenerAndCheckpointsALargeOne() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctfo-wal-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("state/state.sqlite").path
    let deck = try TestHome.write([cardLine("a1", type: "fact")], to: folder, "a.jsonl")
    let wal = path + "-wal"
    func run(_ count: Int) throws {
      let database = try StateDatabase(path: path)
      _ = try DeckIndex(database: database).sync(decks: [deck])
      let card = try #require(
        try DeckIndex(database: database).reader().card(type: "fact", ordinal: 0))
      _ = try StateStore(database: database).appendShown(
        Array(repeating: card, count: count), time: 1)
    }
    try run(1)
    let small = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
    #expect(small > 0 && small <= 64 * 4_120, "a short run's frames stay in the WAL")
    // A run that only reads (`ctfo types`) leaves them too: no checkpoint, with its syncs.
    do {
      let database = try StateDatabase(path: path, oneConnection: true)
      #expect(try StateStore(database: database).historyCount() == 1)
    }
    #expect(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int == small)
    try run(20_000)
    #expect(!FileManager.default.fileExists(atPath: wal), "a large batch is checkpointed at close")
    let database = try StateDatabase(path: path)
    #expect(try StateStore(database: database).history(limit: 1).first?.index == 20_000)
    #expect(try database.integrityCheck() == "ok")
  }
}
