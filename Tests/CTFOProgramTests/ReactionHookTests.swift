import CTFOProgram
import FeedCore
import Foundation
import TestFixtures
import Testing

/// `[hooks] reaction = "CMD"`: the card as one JSON object on the command's
/// standard input, in the background, within a deadline; failures reported once.
@Suite(.timeLimit(.minutes(1)))
struct ReactionHookTests {
  private let final = FinalReaction(
    card: Card(
      id: "q/7", type: "quotes", title: "A \"title\"", body: "Line one\nline two ✓",
      source: "Someone", url: "https://example.org/q7"),
    reaction: .ctfo, time: 1_763_900_000)

  /// Runs the hook on a thread of its own and returns its outcome.
  private func run(
    _ command: String, on reaction: FinalReaction? = nil, deadline: Duration = .seconds(5)
  ) async -> String? {
    let input = Array((reaction ?? final).json.utf8)
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(
          returning: ReactionHook.run(command, input: input, deadline: deadline))
      }
    }
  }

  @Test func theCardComesAsOneJSONObjectOnStandardInput() async throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let out = folder.path("cards.jsonl")
    #expect(await run("cat >> '\(out)'") == nil)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
    #expect(
      object == [
        "id": "q/7", "type": "quotes", "title": "A \"title\"", "text": "Line one\nline two ✓",
        "source": "Someone", "url": "https://example.org/q7", "reaction": "CTFO",
        "time": "2025-11-23T12:13:20Z",
      ])
  }

  /// The README's example: every card swiped up, appended to a JSON Lines file.
  @Test func theReadmesExampleKeepsTheCardsSwipedUp() async throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let out = folder.path("ctfo-cards.jsonl")
    // As README.md has it in config.toml: a literal string, so the backslashes are the shell's.
    let command = #"grep -F "\"reaction\":\"CTFO\"" >> '"# + out + "'; true"
    var left = final
    left.reaction = .tifb
    for reaction in [final, left, final] { #expect(await run(command, on: reaction) == nil) }
    let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""reaction":"CTFO""#) })
  }

  @Test func aFailureSaysItsStatusAndTheFirstLineOfItsErrors() async {
    let problem = await run("cat > /dev/null; echo 'no space left' >&2; echo more >&2; exit 3")
    #expect(problem == "the reaction hook failed (status 3): no space left")
    #expect(await run("exit 0") == nil, "a hook that does not read its input is fine")
  }

  @Test func aHookPastItsDeadlineIsStoppedWithWhatItStarted() async throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let marker = folder.path("late")
    // The child holds the pipes open: the kill must reach the whole process group.
    let problem = await run("sleep 30 & wait; touch '\(marker)'", deadline: .milliseconds(300))
    #expect(problem == "the reaction hook was stopped after 300 ms")
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  @Test func startReturnsAtOnceAndReportsAFailureOnce() async throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let failures = HookFailures(path: folder.path("hook-failure"))
    let (reports, continuation) = AsyncStream<String>.makeStream()
    let hook = ReactionHook(command: "cat > /dev/null; exit 1") { problem in
      failures.report(problem, at: 1_763_900_000)
      continuation.yield(problem)
    }
    hook.start(final)
    hook.start(final)
    var iterator = reports.makeAsyncIterator()
    #expect(await iterator.next() == "the reaction hook failed (status 1)")
    #expect(await iterator.next() == "the reaction hook failed (status 1)")
    #expect(failures.take() == "the reaction hook failed (status 1)")
    #expect(failures.take() == nil, "the same failure again is not shown again")
    #expect(
      HookFailures.last(at: folder.path("hook-failure"))
        == "2025-11-23T12:13:20Z the reaction hook failed (status 1)")
  }

  @Test func theHookIsReadFromItsTableAndNoAnalyticsLeavesItOn() throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let file = folder.path("config.toml")
    try Data("analytics = false\n[hooks]\nreaction = \"cat >> ~/ctfo.jsonl\"\n".utf8)
      .write(to: URL(fileURLWithPath: file))
    let config = try Configuration.load(file: file, flags: OptionValues(noAnalytics: true))
    #expect(config.reactionHook == "cat >> ~/ctfo.jsonl")
    #expect(!config.analytics.enabled)
    try Data("[hooks]\nreaction = \"  \"\n".utf8).write(to: URL(fileURLWithPath: file))
    #expect(throws: CLIError.self) { try Configuration.load(file: file, flags: OptionValues()) }
  }
}
