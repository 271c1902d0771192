import ArgumentParser
import CardStore
import FeedCore
import FeedPipeline
import Foundation
import Screens
import Terminal

/// The interactive app: wires the terminal, the feed, the undo window and the state writer,
/// then hands over to the run loop.
enum Interactive {
  static func run(_ global: GlobalOptions) throws {
    // Decks are synced before the screen is taken: a first import of a large deck prints its
    // problems on a normal terminal, not behind a blank screen.
    let launch = try Launch(global.values)
    let session: TerminalSession
    do {
      session = try TerminalSession.open()
    } catch {
      Output.warn(error.description)
      throw ExitCode(2)
    }
    do {
      try run(launch, session: session)
    } catch {
      session.close()
      throw error
    }
  }

  private static func run(_ launch: Launch, session: TerminalSession) throws {
    let wake = WakePipe()
    let committed = CommitMark()
    let writer = StateWriter(
      store: launch.state,
      onCommitted: { sequence in
        committed.advance(to: sequence)
        wake.wake()
      })
    let size = session.size
    let text = CardScreen.textArea(width: size.width, height: size.height)
    let area = TextArea(width: text.width, height: text.height)
    let feed = try launch.feed(area: area) { wake.wake() }
    let (window, _) = try launch.state.launchUndo(
      configuration: launch.configuration.undo, time: Date().timeIntervalSince1970)
    feed.start()
    let services = try LiveServices(
      launch: launch, feed: feed, writer: writer, committed: committed, window: window,
      problems: launch.problems.map(\.description), area: area)
    InteractiveApp(session: session, wakeFD: wake.fd, services: services).run()
  }
}
