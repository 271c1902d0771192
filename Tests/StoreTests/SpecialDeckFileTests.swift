import Decks
import Foundation
import Store
import TestFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A deck line holding exactly `bytes` bytes: a card whose body pads it out.
private func cardLine(_ id: String, bytes: Int) -> String {
  let empty = cardLine(id, body: "")
  return cardLine(id, body: String(repeating: "x", count: bytes - empty.utf8.count))
}

/// Decks no user should write: devices, FIFOs, endless lines. Each is reported and skipped,
/// without blocking and without reading more than a line's limit into memory.
@Suite struct SpecialDeckFileTests {
  @Test func devicesAreNotReadAsDecks() throws {
    let report = DeckCheck.check(["/dev/null", "/dev/zero", "/dev/urandom"])
    #expect(
      report.problems.map(\.description) == [
        "/dev/null: not a regular file", "/dev/zero: not a regular file",
        "/dev/urandom: not a regular file",
      ])
  }

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.path("fifo.jsonl")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(DeckCheck.check([fifo]).problems.map(\.description) == ["\(fifo): not a regular file"])
  }

  @Test func syncSkipsSpecialFilesAndLoadsTheRest() throws {
    let home = try TestHome()
    let link = home.url.appendingPathComponent("zero.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
    let fifo = home.url.appendingPathComponent("fifo.jsonl").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let good = try home.deck("good.jsonl", [cardLine("a")])
    for _ in 0..<2 {
      let report = try home.index.sync(decks: [fifo, link, good])
      #expect(
        report.problems.map(\.description) == [
          "\(fifo): not a regular file", "\(link): not a regular file",
        ])
      #expect(try home.index.catalog().map(\.cards) == [1])
    }
  }

  @Test func aLineOverTheLimitIsReportedAndSkipped() throws {
    let home = try TestHome()
    let limit = 1 << 20
    let path = try home.deck(
      "long.jsonl",
      [
        cardLine("a"), cardLine("atLimit", bytes: limit), cardLine("over", bytes: limit + 1),
        cardLine("b"), cardLine("huge", bytes: 3 * limit), cardLine("c"),
        cardLine("last", bytes: 2 * limit),
      ])
    let problems = [
      "\(path):3: line too long (over 1 MiB)", "\(path):5: line too long (over 1 MiB)",
      "\(path):7: line too long (over 1 MiB)",
    ]
    let report = DeckCheck.check([path])
    #expect(report.problems.map(\.description) == problems)
    #expect(report.cards == 4)
    #expect(try home.index.sync(decks: [path]).problems.map(\.description) == problems)
    let padding = limit - cardLine("atLimit", body: "").utf8.count
    #expect(try home.index.card(id: "atLimit")?.body.utf8.count == padding)
    #expect(try home.index.catalog().map(\.cards) == [4])
  }
}
