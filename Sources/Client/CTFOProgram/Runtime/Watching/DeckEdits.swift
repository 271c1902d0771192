import Decks
import Dispatch
import FeedCore
import FeedPipeline
import Store
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Follows edits of the user's deck files while the app runs: the decks folder's `*.jsonl`
/// files and `--deck` files, as the app's `FileWatcher` records them.
///
/// A saved deck is read again whole on a queue of its own (never on the UI thread) and
/// compared, by id, with what the feed has of it: the index's cards at launch, then the last
/// read. Its new cards join the feed, changed ones are prepared again, removed ones leave the
/// queues and never come up; a new type appears in the settings. Each bad line is reported as
/// `FILE:LINE: message` in the status line, and the rest of the deck applies. A deleted deck
/// removes its cards. The index itself is synced at the next launch, as always.
final class DeckEdits: Sendable {
  private let feed: Feed
  private let index: DeckIndex
  private let queue = DispatchQueue(label: "ctfo.deck-edits")
  /// What the feed has of a deck: its cards, and its problems as last reported (a save that
  /// changes nothing says nothing again).
  private struct Deck {
    var cards = LiveCollection()
    var problems: [DeckProblem] = []
  }

  /// Each deck followed so far, by path (touched only on `queue`).
  private let decks = Mutex<[String: Deck]>([:])
  /// The watcher whose deck changes this reads (kept for the run).
  private let watcher = Mutex<FileWatcher?>(nil)

  init(feed: Feed, index: DeckIndex) {
    self.feed = feed
    self.index = index
  }

  /// Reads the deck changes `watcher` records (nil when inotify is not available: the app then
  /// follows no edits), each time `decksChanged()` is called.
  func follow(_ watcher: FileWatcher?) {
    self.watcher.withLock { $0 = watcher }
  }

  /// The watcher recorded deck changes: they are read and applied on a queue of their own.
  func decksChanged() {
    queue.async { self.readChanged() }
  }

  private func readChanged() {
    let paths = watcher.withLock { $0 }?.takeChanged() ?? []
    for path in paths { reread(path) }
  }

  /// Reads the deck at `path` again and applies what changed to the feed.
  func reread(_ path: String) {
    let index = index
    var deck: Deck
    if let known = decks.withLock({ $0[path] }) {
      deck = known
    } else {
      deck = Deck()
      deck.cards.apply(.initial((try? index.cards(inDeck: path)) ?? []))
    }
    let contents: DeckCheck.Contents
    if access(path, F_OK) != 0 {
      contents = DeckCheck.Contents()  // Deleted: all its cards go.
    } else {
      contents = DeckCheck.read([path])
    }
    var change = deck.cards.apply(.replaced(contents.cards))
    // An edit is the difference it makes, not a replacement of everything the feed holds.
    change.replaced = false
    let told = deck.problems
    deck.problems = contents.report.problems
    decks.withLock { [deck] in $0[path] = deck }
    if !change.isEmpty || !contents.types.isEmpty {
      feed.apply(change, types: contents.types) { try? index.key(of: $0) }
    }
    guard told != deck.problems else { return }
    for problem in deck.problems { feed.report(problem.description) }
  }
}
