import App
import CardText
import FeedCore
import FeedPipeline
import Screens
import Terminal
import YieldToUser

/// The interactive app's run loop: draw, block until something happens, reduce, perform the
/// effects, draw again. What happens is decided by the pure `AppMachine`; the services
/// perform its effects and their answers go back to it.
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

  /// Saves state and stops the feed: the last changes go to the writer, which writes what it
  /// holds; their reports reach the machine (hooks run, the save problem is known).
  private func close() {
    services.stopLink()
    perform(machine.reduce(.closing, now: now))
    let unsaved = services.finishWrites()
    perform(machine.reduce(.written(services.takeReports()), now: now))
    services.finish(unsaved: unsaved, saveProblem: machine.session.saveProblem)
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

  private func actions(for event: InputEvent) -> [AppMachine.Action] {
    let elsewhere = services.storedSettings().map {
      [
        AppMachine.Action.storedSettings(
          disabled: $0.disabled, types: $0.types, enabledNow: $0.enabledNow)
      ]
    }
    switch event {
    case .key(let key): return userActed() + (elsewhere ?? []) + [.app(.key(key))]
    case .mouse(let report): return userActed() + (elsewhere ?? []) + [.app(action(for: report))]
    case .wake:
      let server =
        services.serverNews().map {
          [AppMachine.Action.serverNews(pulled: $0.pulled, queuedEvents: $0.queuedEvents)]
        } ?? []
      let held = machine.session
      let live =
        services.liveNews(
          holds: { held.holds($0) }, undoable: held.window.tombstones.map(\.cardID)
        ).map { [AppMachine.Action.live($0)] } ?? []
      return [.written(services.takeReports())] + (elsewhere ?? []) + server + live + [.app(.wake)]
    case .terminate: return [.app(.terminate)]
    case .resize: return [resized()]
    case .resumed:
      session.invalidate()
      return [resized()]
    }
  }

  /// The user pressed a key or used the mouse: commits already reported reach the session
  /// first, so that the key acts on the history numbers they gave.
  private func userActed() -> [AppMachine.Action] {
    Courtesy.userActed()
    let reports = services.takeReports()
    return reports.isEmpty ? [] : [.written(reports)]
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
      guard let result = perform(effect) else { continue }
      dispatch(result)
    }
  }

  /// Performs one effect; returns the action that reports its result, if it has one.
  private func perform(_ effect: AppMachine.Effect) -> AppMachine.Action? {
    switch effect {
    case .app(let effect): return perform(effect).map(AppMachine.Action.app)
    case .takeFromFeed: return .fed(services.takeFromFeed())
    case .findUndoCard(let id): return .undoCard(services.undoCard(id: id))
    case .findBroughtBack(let id): return .broughtBackCard(services.card(id: id))
    case .askEnabledTypes(let type, let enabled, let confirmed):
      return .enabledTypes(
        services.enabledTypes(), type: type, enabled: enabled, confirmed: confirmed)
    case .enableTypes(let types): return .app(.settingChanged(.applied(services.enable(types))))
    case .write(let write): services.write(write)
    case .retryWrites: services.retryWrites()
    case .runHook(let id, let reaction, let time):
      services.runHook(cardID: id, reaction: reaction, time: time)
    case .deliverAnalytics: services.deliverAnalytics()
    }
    return nil
  }

  /// Performs one of the screens' effects the machine passes on.
  private func perform(_ effect: AppEffect) -> AppAction? {
    switch effect {
    case .loadTypes: return .typesLoaded(services.typeStatuses())
    case .loadHistory(let limit, let search, let filter):
      let entries = services.history(limit: limit, matching: search, reaction: filter.reaction)
      return .historyLoaded(
        entries, total: services.historyCount(), search: search, filter: filter)
    case .loadStats: return .statsLoaded(services.readingStats())
    case .openCard(let id): return .cardOpened(services.card(id: id))
    case .loadSettings:
      return .settingsLoaded(services.typeStatuses(), problems: services.deckProblems())
    case .resizeTextArea(let area):
      services.resize(textArea: area)
      return nil
    case .copy(let text):
      session.copyToClipboard(text)
      return nil
    case .openURL(let url):
      return .urlOpened(failure: session.whileSuspended { LinkOpener.open(url) })
    case .pull:
      services.pullNow()
      return nil
    case .dismissNotice(let id):
      services.dismissNotice(id: id)
      return nil
    case .quit:
      quitting = true
      return nil
    // The machine does these on its session.
    case .takeNext, .swipe, .undo, .undoTo, .bringBack, .setEnabled: return nil
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
