import Decks
import FeedCore
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
}
