import App
import CardPreparation
import CardText
import Dispatch
import FeedCore
import FeedPipeline
import Foundation
import Store
import Terminal
import TestFixtures
import Testing

@testable import CTFOProgram

/// A temporary home with a small deck, opened as the app opens it (`Interactive`): the state
/// database and deck index, the writer reporting through a wake-up pipe, the feed, and the
/// runner of the machine's effects over them. No terminal: the test takes the run loop's place.
final class LiveHome {
  /// Two types: three facts and two jokes, each card with a title.
  static let deck =
    ["f1", "f2", "f3"].map { card($0, type: "fact") }
    + ["j1", "j2"].map { card($0, type: "joke") }
  /// The text area of an 80 × 24 terminal.
  static let area = Geometry.textArea(width: 80, height: 24)

  let launch: Launch
  let wake: WakePipe
  let writer: StateWriter
  let feed: Feed
  let services: LiveServices
  /// The undo window the launch left.
  let window: UndoWindow
  private let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder("ctfo-live")
    _ = try TemporaryFolder.write(
      Self.deck, to: folder.url.appendingPathComponent("decks"), "mixed.jsonl")
    let home = folder.url.path
    // The home's decks only: the bundled decks are not looked for.
    let paths = Paths(
      home: home, environment: { $0 == "CTFO_BUNDLED_DECKS" ? "" : nil }, executable: nil)
    launch = try Launch(OptionValues(home: home, seed: 7), paths: paths, interactive: true)
    let wake = WakePipe()
    self.wake = wake
    let reports = WriterReports(wake: wake)
    writer = StateWriter(
      store: launch.state, onCommitted: reports.committed, onFailed: reports.failed)
    feed = try launch.feed(area: Self.area, mark: .ellipsis) { wake.wake() }
    window = try launch.state.launchUndo(configuration: launch.configuration.undo, time: 1).window
    feed.start()
    services = LiveServices(
      launch: launch, feed: feed, writer: writer, reports: reports,
      problems: DeckProblemList(launch.problems.map(\.description)), area: Self.area,
      mark: .ellipsis, link: nil)
  }

  deinit {
    feed.stop()
    writer.waitUntilIdle()
  }

  /// A deck line whose card has a title and a body long enough to wrap on a narrow area.
  static func card(_ id: String, type: String) -> String {
    #"{"id": "\#(id)", "type": "\#(type)", "title": "Title of \#(id)", "#
      + #""body": "The body of \#(id), long enough to wrap on a narrow screen."}"#
  }

  /// The card `id` as the deck index holds it.
  func card(_ id: String) throws -> Card {
    try #require(try launch.index.card(id: id))
  }

  /// Waits on the wake-up pipe, as the run loop does, until `done` holds; false when it still
  /// does not after `seconds`. The pipe is watched from a thread of Dispatch's, so the feed's
  /// preparations keep the cooperative pool meanwhile.
  func wait(seconds: Double = 30, until done: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !done() {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      let (whole, fraction) = left.components
      let milliseconds = Int32(clamping: whole * 1000 + fraction / 1_000_000_000_000_000 + 1)
      let fd = wake.fd
      await withCheckedContinuation { (woken: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
          var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
          _ = poll(&entry, 1, milliseconds)
          // Every wake-up so far is taken: `done` sees what came before the last one.
          var bytes = [UInt8](repeating: 0, count: 64)
          while read(fd, &bytes, bytes.count) > 0 {}
          woken.resume()
        }
      }
    }
    return true
  }

  /// The writer's reports until `count` came in (fewer once the deadline passed).
  func reports(count: Int) async -> [WriterReport] {
    var all: [WriterReport] = []
    let complete = await wait {
      all += services.takeReports()
      return all.count >= count
    }
    #expect(complete, "\(count) reports expected, \(all.count) came: \(all)")
    return all
  }

  /// A card from the feed, taken again on each wake-up while it has none ready.
  func cardFromFeed() async -> PreparedCard? {
    var card: PreparedCard?
    let dealt = await wait {
      if case .card(let prepared) = services.takeFromFeed() { card = prepared }
      return card != nil
    }
    #expect(dealt, "the feed dealt no card")
    return card
  }
}
