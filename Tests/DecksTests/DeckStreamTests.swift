import Decks
import FeedCore
import Foundation
import Synchronization
import TestFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Deck lines piped in: the header's types, each read's cards as one update, bad lines
/// reported with their number, the end of the input the end of the updates.
@Suite struct DeckStreamTests {
  final class Problems: Sendable {
    let list = Mutex<[String]>([])
  }

  @Test func aPipesLinesBecomeUpdatesAndItsBadLinesProblems() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let lines = [
      #"{"deck": "piped", "types": {"fact": {"label": "Fact"}}}"#, cardLine("a"),
      #"{"id": "c", "body": "no type"}"#, cardLine("b"),
    ]
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    #expect(write(ends[1], bytes, bytes.count) == bytes.count)
    close(ends[1])
    defer { close(ends[0]) }

    let problems = Problems()
    let stream = DeckStream(fd: ends[0], name: "pipe") { problem in
      problems.list.withLock { $0.append(problem.description) }
    }
    var updates: [CardUpdate] = []
    for try await update in stream { updates.append(update) }
    #expect(
      updates == [
        .types([CardType(name: "fact", label: "Fact")]),
        .added([
          Card(id: "a", type: "fact", body: "Body of a"),
          Card(id: "b", type: "fact", body: "Body of b"),
        ]),
      ])
    #expect(problems.list.withLock { $0 } == [#"pipe:3: missing "type""#])
  }

  private static func send(_ lines: [String], to fd: Int32) {
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    #expect(write(fd, bytes, bytes.count) == bytes.count)
  }

  /// An endless stream keeps its newest cards: past the limit the oldest leave (before the
  /// cards that push them out come), and a card pushed out by those after it in the same read
  /// is never sent at all.
  @Test func theStreamHoldsItsLimitAndTheOldestCardsLeave() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let stream = DeckStream(fd: ends[0], name: "pipe", limit: 3)
    var updates = stream.makeAsyncIterator()
    Self.send(["a", "b", "c", "d", "e"].map { cardLine($0) }, to: ends[1])
    #expect(try await updates.next() == .added(["c", "d", "e"].map(Self.card)))
    // "c" again is a change of a card held, not one more.
    Self.send(["c", "f", "g"].map { cardLine($0) }, to: ends[1])
    close(ends[1])
    #expect(try await updates.next() == .removed(["c", "d"]))
    #expect(try await updates.next() == .added(["f", "g"].map(Self.card)))
    #expect(try await updates.next() == nil)
  }

  /// What the default limit holds of a stream longer than it, counted from the updates.
  @Test func aLongStreamIsHeldToTheDefaultLimit() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let total = DeckStream.cardLimit * 2 + 7
    let input = ends[1]
    let writer = Thread {
      for start in stride(from: 0, to: total, by: 1000) {
        Self.send((start..<min(start + 1000, total)).map { cardLine("c\($0)") }, to: input)
      }
      close(input)
    }
    writer.start()
    var held: Set<String> = []
    for try await update in DeckStream(fd: ends[0], name: "pipe") {
      switch update {
      case .added(let cards): held.formUnion(cards.map(\.id))
      case .removed(let ids): held.subtract(ids)
      default: Issue.record("an update of another kind: \(update)")
      }
      #expect(held.count <= DeckStream.cardLimit)
    }
    #expect(held == Set((total - DeckStream.cardLimit..<total).map { "c\($0)" }))
  }

  private static func card(_ id: String) -> Card {
    Card(id: id, type: "fact", body: "Body of \(id)")
  }
}
