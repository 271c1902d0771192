import CTFOProgram
import FeedCore
import Foundation
import Store
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

  /// A child the hook leaves behind (`setsid cmd &`) keeps its standard error open: the hook is
  /// over when its own process is, and the hooks after it do not wait for the child.
  @Test func aChildLeftHoldingTheHooksErrorsDoesNotHoldIt() async {
    let start = ContinuousClock.now
    // Each child holds the hook's stderr for a minute: waiting for it would take two; a loaded
    // machine (the end-to-end suites beside) takes seconds.
    #expect(await run("cat > /dev/null; setsid sleep 60 & exit 0") == nil)
    let problem = await run("echo 'disk full' >&2; setsid sleep 60 & exit 4")
    #expect(problem == "the reaction hook failed (status 4): disk full")
    #expect(ContinuousClock.now - start < .seconds(45))
    #expect(await run("head -c 300000 /dev/zero >&2; exit 0") == nil, "much written to stderr")
  }

  private func tombstone(_ index: Int, _ direction: SwipeDirection) -> Tombstone {
    Tombstone(historyIndex: index, cardID: "c\(index)", type: "fact", direction: direction)
  }

  /// A state database whose history shows cards c0 to c3, and a hook fed from its queue that
  /// appends each card it is given to `out`.
  private func home(_ folder: TemporaryFolder) throws -> (StateStore, HookQueue) {
    let database = try StateDatabase(path: folder.path("state.sqlite"))
    let state = StateStore(database: database, hooks: true)
    try state.append(
      (0..<4).map { ShownRecord(cardID: "c\($0)", type: "fact", title: "T\($0)", shownAt: 1) })
    return (state, HookQueue(database: database))
  }

  private func drain(_ queue: HookQueue, into out: String) -> ReactionHook {
    let hook = ReactionHook(
      command: "cat >> '\(out)'", waiting: queue,
      card: { Card(id: $0.cardID, type: $0.type, title: $0.title, body: "gone") }
    ) { problem in Issue.record("the hook failed: \(problem)") }
    hook.finish(within: .seconds(30))
    return hook
  }

  private func given(_ out: String) throws -> [String] {
    guard FileManager.default.fileExists(atPath: out) else { return [] }
    return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
      let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      let field = { (key: String) in object?[key] as? String ?? "?" }
      return "\(field("id")) \(field("title")) \(field("reaction"))"
    }
  }

  /// The reactions a change makes final wait in the state database, written with it, until a
  /// hook has them: a quit before the hook ran loses none, the next launch runs them in order.
  @Test func reactionsMadeFinalWaitInTheDatabaseAndRunAfterARelaunch() throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let (state, queue) = try home(folder)
    try state.apply(
      StateChange(
        effects: [.entomb(tombstone(0, .up)), .entomb(tombstone(1, .left))], time: 1_763_900_000))
    #expect(try queue.count() == 0, "reactions still in the undo window wait for nothing")
    try state.apply(
      StateChange(
        effects: [.commit(tombstone(0, .up)), .commit(tombstone(1, .left))], time: 1_763_900_001))
    #expect(try queue.count() == 2)
    // The run that made them final quits here; the next one starts its hook.
    let out = folder.path("given.jsonl")
    _ = drain(queue, into: out)
    #expect(try given(out) == ["c0 T0 CTFO", "c1 T1 TIFB"])
    #expect(try queue.count() == 0)
    _ = drain(queue, into: out)
    #expect(try given(out).count == 2, "each reaction is given once")
  }

  /// `on-launch = "ignore"` drops the last run's undo window without events; history keeps
  /// those reactions, and so does the hook.
  @Test func reactionsDroppedAtLaunchStillReachTheHook() throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let (state, queue) = try home(folder)
    try state.apply(
      StateChange(
        effects: [.entomb(tombstone(2, .right)), .entomb(tombstone(3, .up))], time: 1_763_900_000))
    let (window, effects) = try state.launchUndo(
      configuration: UndoConfiguration(onLaunch: .ignore), time: 1_763_900_100)
    #expect(window.tombstones.isEmpty && effects.count == 2)
    let out = folder.path("given.jsonl")
    _ = drain(queue, into: out)
    #expect(try given(out) == ["c2 T2 TFU", "c3 T3 CTFO"])
  }

  @Test func withoutAHookNothingIsQueued() throws {
    let folder = try TemporaryFolder("ctfo-hook")
    let database = try StateDatabase(path: folder.path("state.sqlite"))
    let state = StateStore(database: database)
    try state.apply(StateChange(effects: [.commit(tombstone(0, .up))], time: 1))
    #expect(try HookQueue(database: database).count() == 0)
  }
}
