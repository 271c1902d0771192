import App
import CardPreparation
import FeedCore
import Testing

@testable import CTFOProgram

/// The run loop's part without a terminal: the machine's effects performed by the runner, and
/// their answers reduced in turn, as `InteractiveApp` does; frames and wake-ups come when the
/// test says.
private struct Loop {
  var machine: AppMachine
  let services: LiveServices
  var now = 10.0
  /// How many writes went to the writer, and how many of them it reported.
  private(set) var given = 0
  private(set) var reported = 0

  mutating func send(_ action: AppMachine.Action) {
    perform(machine.reduce(action, now: now))
  }

  mutating func perform(_ effects: [AppMachine.Effect]) {
    for effect in effects {
      if let answer = answer(to: effect) { send(answer) }
    }
  }

  /// A frame is on screen: the writes go to the writer.
  mutating func frameDrawn() { send(.frameDrawn) }

  /// The loop woke up: the writer's reports, then the wake-up itself.
  mutating func woke() {
    let reports = services.takeReports()
    reported += reports.count
    send(.written(reports))
    send(.app(.wake))
  }

  /// Everything written is reported, and the screen shows a card: which, and its row.
  var settledCard: ShownCard? {
    guard reported == given, case .card(let shown) = machine.screen.feed else { return nil }
    return shown
  }

  /// The runner's own switch, as the app's loop performs every effect (the refill after a
  /// frame among them), counting the writes.
  private mutating func answer(to effect: AppMachine.Effect) -> AppMachine.Action? {
    if case .write = effect { given += 1 }
    return services.perform(effect, display: nil)
  }
}

@Suite(.timeLimit(.minutes(2)))
struct SwipeThroughTheRunnerTests {
  @Test func aKeySwipesTheCardIntoTheDatabaseAndTheNextShowsWithItsRow() async throws {
    let home = try LiveHome()
    var loop = Loop(
      machine: AppMachine(
        screen: AppState(width: 80, height: 24),
        session: home.services.session(
          window: home.window, returning: try home.launch.state.returning()),
        disabledTypes: home.services.disabledTypes(), now: 10),
      services: home.services)
    loop.perform(loop.machine.start(now: 10))
    loop.frameDrawn()

    // The first card shows once the feed readied it and its history row committed.
    var shown: ShownCard?
    #expect(
      await home.wait {
        loop.woke()
        loop.frameDrawn()
        shown = loop.settledCard
        return shown != nil
      })
    let first = try #require(shown)
    #expect(first.position == 0)
    #expect(try home.launch.state.history(limit: 10).map(\.cardID) == [first.prepared.card.id])

    // The key: the swipe's write goes with the next card's row; that card shows numbered 1.
    loop.now = 11
    loop.send(.app(.key(.right)))
    loop.frameDrawn()
    #expect(
      await home.wait {
        loop.woke()
        loop.frameDrawn()
        shown = loop.settledCard
        return shown.map { $0.prepared.card.id != first.prepared.card.id } ?? false
      })
    let second = try #require(shown)
    #expect(second.position == 1)
    let swiped = Tombstone(
      historyIndex: 0, cardID: first.prepared.card.id, type: first.prepared.card.type,
      direction: .right)
    #expect(loop.machine.session.window.tombstones == [swiped])
    #expect(try home.launch.state.tombstones() == [swiped])
    let rows = try home.launch.state.history(limit: 10)
    #expect(rows.map(\.cardID) == [second.prepared.card.id, first.prepared.card.id])
    #expect(rows.map(\.reaction) == [nil, .tfu])

    // Undo: the runner finds the card again, the machine shows it, its restore is written.
    loop.now = 12
    loop.send(.app(.key(.character("u"))))
    #expect(loop.machine.screen.feed == .card(first))
    loop.frameDrawn()
    #expect(
      await home.wait {
        loop.woke()
        return loop.reported == loop.given
      })
    #expect(try home.launch.state.tombstones() == [])
    #expect(try home.launch.state.returning().map(\.index) == [1])
    #expect(try home.launch.state.history(limit: 10).map(\.reaction) == [nil])
    #expect(loop.machine.session.saveProblem == nil)
  }
}
