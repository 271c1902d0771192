import App
import CardText
import FeedCore
import FeedPipeline
import Screens
import Terminal
import YieldToUser

/// The interactive app's run loop: draw, block until something happens, reduce, perform the
/// effects, draw again. What happens is decided by the pure `AppMachine`; the services
/// perform each of its effects once (`AppServices.perform`) and their answers go back to it.
///
/// It blocks in `waitForEvents` with no timeout, so an idle app uses no CPU; only while a
/// slide-out plays does it wait for at most one frame.
///
///     let app = InteractiveApp(
///       session: session, wakeFD: pipe.fd, services: services, machine: machine)
///     app.run(launched: effects)
final class InteractiveApp {
  private let session: any AppDisplay
  private let wakeFD: Int32
  private let services: any AppServices
  private var machine: AppMachine
  private var quitting = false
  /// The pause between two frames of the slide-out; `CTFO_TEST_FRAME_MS` holds each frame
  /// longer, for a test that must see one on screen.
  private let frameMilliseconds =
    Environment.variable("CTFO_TEST_FRAME_MS").flatMap { Int($0) } ?? SlideOut.frameMilliseconds

  init(
    session: any AppDisplay, wakeFD: Int32, services: any AppServices, machine: AppMachine
  ) {
    self.session = session
    self.wakeFD = wakeFD
    self.services = services
    self.machine = machine
  }

  private var now: Double { NextRequest.now() }

  /// Runs until the user quits or a signal ends the session; saves, then restores the terminal.
  /// `launched` are the undo effects the launch wrote (the reactions it made final).
  func run(launched: [UndoEffect]) {
    perform(machine.start(launched: launched, now: now))
    // Keys typed before the app started are read before its first frame: they were not
    // pressed on its placeholder, so they wait for the first card instead of being refused.
    for action in session.events(wakeFD: wakeFD, milliseconds: 0).flatMap(actions)
    where !quitting {
      dispatch(action)
    }
    // A `q` typed ahead quits before a frame, or when a frame lets the keys before it act.
    if !quitting { draw() }
    while !quitting {
      for action in nextActions() where !quitting { dispatch(action) }
      if quitting { break }
      draw()
    }
    // What is left to flush at quit goes at once (at most 2 s).
    Courtesy.stopDeferring()
    close()
    session.close()
  }

  /// Saves state and stops the feed: the link stops, the last changes go to the writer, which
  /// writes what it holds; their reports reach the machine (hooks run, the save problem is
  /// known), then hooks and analytics get their moment.
  private func close() {
    perform(machine.reduce(.closing, now: now))
  }

  /// Waits for events and turns them into actions; a frame of the slide-out when its pause
  /// ends with nothing else happening.
  private func nextActions() -> [AppMachine.Action] {
    guard machine.screen.isAnimating else {
      return session.events(wakeFD: wakeFD, milliseconds: nil).flatMap(actions)
    }
    let events = session.events(wakeFD: wakeFD, milliseconds: frameMilliseconds)
    return events.isEmpty ? [.app(.frame)] : events.flatMap(actions)
  }

  /// A key or a click comes after the commits already reported (it acts on the history
  /// numbers they gave); a wake-up after every news.
  private func actions(for event: InputEvent) -> [AppMachine.Action] {
    switch event {
    case .key(let key): return userActed() + [.app(.key(key))]
    case .mouse(let report): return userActed() + [.app(action(for: report))]
    case .wake: return services.poll(woken: true, session: machine.session) + [.app(.wake)]
    case .terminate: return [.app(.terminate)]
    case .resize: return [resized()]
    case .resumed:
      session.invalidate()
      return [resized()]
    }
  }

  /// The user pressed a key or used the mouse: background work waits, and the news already
  /// in reaches the machine first.
  private func userActed() -> [AppMachine.Action] {
    Courtesy.userActed()
    return services.poll(woken: false, session: machine.session)
  }

  /// What the mouse did: a press on a hint-bar item is its key.
  private func action(for report: MouseEvent) -> AppAction {
    guard report.kind == .press,
      let key = AppScreen.hintKey(atColumn: report.column, row: report.row, in: machine.screen)
    else { return .mouse(report) }
    return .key(key)
  }

  private func resized() -> AppMachine.Action {
    let size = session.size
    return .app(.resized(width: size.width, height: size.height))
  }

  /// Reduces an action and performs its effects, reducing their results in turn.
  private func dispatch(_ action: AppMachine.Action) {
    perform(machine.reduce(action, now: now))
  }

  private func perform(_ effects: [AppMachine.Effect]) {
    for effect in effects {
      if effect == .quit { quitting = true }
      guard let result = services.perform(effect, display: session) else { continue }
      dispatch(result)
    }
  }

  /// Draws the machine's state; again while keys typed ahead wait only for a frame to show
  /// the card they act on (each card they swipe is on screen first).
  private func draw() {
    repeat {
      session.show(machine)
      perform(machine.reduce(.frameDrawn, now: now))
    } while machine.screen.waitsForAFrame && !quitting
  }
}
