import App
import CardPreparation
import FeedCore
import Foundation
import Testing

@testable import CTFOProgram

#if canImport(Glibc)
  import Glibc
#endif

/// A display with no terminal: it hands the run loop batches of events the test wrote, then
/// waits on the wake-up pipe as the terminal does, and keeps what each frame showed.
private final class ScriptedDisplay: AppDisplay {
  /// The events each call gives, in order; after them, the wake-ups of the pipe.
  var batches: [[InputEvent]]
  /// What the feed screen held in each frame drawn, and the swipes undoable then.
  private(set) var frames: [(feed: FeedDisplay, swiped: [String])] = []
  /// Whether the keys were asked for before any frame was drawn.
  private(set) var readBeforeTheFirstFrame = false
  /// The run loop never ends on its own after this: the test fails instead of hanging.
  private let deadline = ContinuousClock.now + .seconds(30)

  init(batches: [[InputEvent]]) { self.batches = batches }

  var size: (width: Int, height: Int) { (width: 80, height: 24) }
  var reportsMouse: Bool { false }

  func events(wakeFD: Int32, milliseconds: Int?) -> [InputEvent] {
    if frames.isEmpty { readBeforeTheFirstFrame = true }
    if !batches.isEmpty { return batches.removeFirst() }
    var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
    let left = ContinuousClock.now.duration(to: deadline).components.seconds
    guard left > 0 else { return [.terminate] }
    let wait = milliseconds.map { Int32($0) } ?? Int32(min(left, 1) * 1000)
    guard poll(&fd, 1, wait) > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 256)
    _ = read(wakeFD, &buffer, buffer.count)
    return [.wake]
  }

  func show(_ machine: AppMachine) {
    frames.append((machine.screen.feed, machine.session.window.tombstones.map(\.cardID)))
  }

  func invalidate() {}
  func copyToClipboard(_ text: String) {}
  func whileSuspended<T>(_ body: () -> T) -> T { body() }
  func close() {}
}

/// Keys typed before the app started are read before its first frame and act, in order, on
/// the cards as each is drawn; the run loop draws each card such a key swipes before the
/// swipe.
@Suite(.timeLimit(.minutes(2)))
struct TypedBeforeLaunchTests {
  @Test func twoSwipesAndAQuitTypedBeforeLaunchSwipeTwoDrawnCardsAndQuit() async throws {
    let home = try LiveHome()
    let machine = AppMachine(
      screen: AppState(width: 80, height: 24, motion: .none),
      session: home.services.session(
        window: home.window, returning: try home.launch.state.returning()),
      disabledTypes: home.services.disabledTypes(), now: 10)
    let display = ScriptedDisplay(batches: [[.key(.right), .key(.right), .key(.character("q"))]])
    // The run loop blocks in poll(2): it runs on a thread of its own, as `main` does, not on
    // one of the cooperative threads the feed's preparations need. Only that thread touches
    // the app and the display until it ends.
    nonisolated(unsafe) let app = InteractiveApp(
      session: display, wakeFD: home.wake.fd, services: home.services, machine: machine)
    await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        app.run(launched: [])
        ended.resume()
      }
    }
    // The keys typed before launch were not pressed on a placeholder the first frame drew.
    #expect(display.readBeforeTheFirstFrame)

    let rows = try home.launch.state.history(limit: 10).reversed()
    #expect(rows.map(\.reaction) == [.tfu, .tfu, nil], "\(rows)")
    // Each card swiped was on screen in a frame drawn before its swipe.
    for row in rows.prefix(2) {
      let drawn = display.frames.firstIndex { frame in
        guard case .card(let shown) = frame.feed else { return false }
        return shown.prepared.card.id == row.cardID
      }
      let swiped = display.frames.firstIndex { $0.swiped.contains(row.cardID) }
      #expect(drawn != nil, "\(row.cardID) never drawn")
      if let drawn, let swiped { #expect(drawn < swiped, "\(row.cardID)") }
    }
  }
}
