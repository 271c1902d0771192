import FeedPipeline
import Foundation
import Screens
import Terminal

// A stand-in entry point to run the interactive app; the lead's argument-parser CLI replaces it.

/// The values of every `--deck PATH` argument.
func deckPaths(_ arguments: [String]) -> [String] {
  zip(arguments, arguments.dropFirst()).filter { $0.0 == "--deck" }.map(\.1)
}

let environment = ProcessInfo.processInfo.environment
let delay = Int(environment["CTFO_TEST_FETCH_DELAY_MS"] ?? "") ?? 0
let deck: JSONLinesDeck
do {
  deck = try JSONLinesDeck(paths: deckPaths(CommandLine.arguments), delayMilliseconds: delay)
} catch {
  FileHandle.standardError.write(Data("ctfo: cannot read the deck: \(error)\n".utf8))
  exit(1)
}
let session: TerminalSession
do {
  session = try TerminalSession.open()
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(2)
}
var ends: [Int32] = [-1, -1]
guard pipe(&ends) == 0 else { fatalError("ctfo: cannot open a pipe") }
let wakeWriteFD = ends[1]
_ = fcntl(wakeWriteFD, F_SETFL, O_NONBLOCK)
let catalog = try await deck.catalog()
let area = CardScreen.textArea(width: session.size.width, height: session.size.height)
let feed = Feed(
  source: deck, catalog: catalog, enabled: Set(catalog.map(\.type.name)), width: area.width,
  height: area.height,
  onReady: {
    var byte: UInt8 = 1
    _ = write(wakeWriteFD, &byte, 1)
  })
feed.start()
InteractiveApp(
  session: session, wakeFD: ends[0], services: InMemoryServices(feed: feed, catalog: catalog)
)
.run()
