import App
import CardText
import FeedCore
import FeedPipeline
import Screens
import Terminal
import YieldToUser

/// The interactive app's run loop: draw, block until something happens, reduce, perform the
/// effects, draw again.
///
/// It blocks in `waitForEvents` with no timeout, so an idle app uses no CPU; only while a
/// slide-out plays does it wait for at most one frame.
///
///     let app = InteractiveApp(
///       session: session, wakeFD: pipe.fd, services: services, mark: .ellipsis,
///       keys: .standard)
///     app.run()
final class InteractiveApp {
  private let session: TerminalSession
  private let wakeFD: Int32
  private let services: any AppServices
  private var state: AppState
  private var quitting = false

  init(
    session: TerminalSession, wakeFD: Int32, services: any AppServices, mark: TruncationMark,
    keys: KeyBindings
  ) {
    self.session = session
    self.wakeFD = wakeFD
    self.services = services
    let size = session.size
    state = AppState(width: size.width, height: size.height, mark: mark, keys: keys)
  }

  /// Runs until the user quits or a signal ends the session; saves, then restores the terminal.
  func run() {
    perform(state.start())
    draw()
    while true {
      for action in nextActions() where !quitting { dispatch(action) }
      if quitting { break }
      draw()
    }
    // What is left to flush at quit goes at once (at most 2 s).
    Courtesy.stopDeferring()
    services.close()
    session.close()
  }

  /// Waits for events and turns them into actions; a frame of the slide-out when its pause
  /// ends with nothing else happening.
  private func nextActions() -> [AppAction] {
    guard state.isAnimating else {
      return session.waitForEvents(wakeFD: wakeFD).flatMap(actions)
    }
    let events = session.waitForEvents(wakeFD: wakeFD, milliseconds: SlideOut.frameMilliseconds)
    return events.isEmpty ? [.frame] : events.flatMap(actions)
  }

  private func actions(for event: InputEvent) -> [AppAction] {
    let elsewhere = services.settingsChangedElsewhere().map {
      [AppAction.settingChanged(.applied($0))]
    }
    switch event {
    case .key(let key):
      Courtesy.userActed()
      return (elsewhere ?? []) + [.key(key)]
    case .wake:
      let server = services.serverLine().map { [AppAction.serverChanged($0)] } ?? []
      let live = services.liveNews().map { [AppAction.liveChanged($0)] } ?? []
      return [.saveProblem(services.refresh())] + (elsewhere ?? []) + server + live + [.wake]
    case .terminate: return [.terminate]
    case .resize: return [resized()]
    case .resumed:
      session.invalidate()
      return [resized()]
    }
  }

  private func resized() -> AppAction {
    let size = session.size
    return .resized(width: size.width, height: size.height)
  }

  /// Reduces an action and performs its effects, reducing their results in turn.
  private func dispatch(_ action: AppAction) {
    perform(state.reduce(action))
  }

  private func perform(_ effects: [AppEffect]) {
    for effect in effects {
      guard let result = perform(effect) else { continue }
      dispatch(result)
    }
  }

  /// Performs one effect; returns the action that reports its result, if it has one.
  private func perform(_ effect: AppEffect) -> AppAction? {
    switch effect {
    case .takeNext:
      let next = services.takeNext()
      return .dealt(next.item, position: next.position)
    case .swipe(let card, let direction):
      services.swipe(card, direction)
      return nil
    case .undo:
      switch services.undo() {
      case .restored(let card): return .undone(card)
      case .nothing: return .undone(nil)
      case .gone(let reason): return .undoRefused(reason)
      }
    case .loadTypes: return .typesLoaded(services.typeStatuses())
    case .loadHistory(let limit, let search):
      let entries = services.history(limit: limit, matching: search)
      return .historyLoaded(entries, total: services.historyCount(), search: search)
    case .openCard(let id): return .cardOpened(services.card(id: id))
    case .loadSettings:
      return .settingsLoaded(services.typeStatuses(), problems: services.deckProblems())
    case .setEnabled(let type, let enabled, let confirmed):
      return .settingChanged(services.setEnabled(type, enabled, confirmed: confirmed))
    case .resizeTextArea(let area):
      services.resize(textArea: area)
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
    }
  }

  private func draw() {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: session.hasColour)
    session.draw(grid)
    services.frameDrawn()
  }
}
