import Decks

#if canImport(Glibc)
  import Glibc
#endif

/// The running app's feed fetches: a thread of its own at low priority (`BackgroundThread`)
/// that fetches each feed when it is due, one at a time, and sleeps until the next is. A
/// fetch writes the feed's deck file; the app's watcher sees it and the new entries join the
/// feed as any deck edit does (`DeckEdits`). Nothing here runs on a key press.
final class FeedRunner: Sendable {
  private let book: FeedBook
  private let configured: [String: String]
  private let thread = BackgroundThread(niceness: 10)

  /// A runner when there is a feed to fetch, its folder made so that it can be watched.
  init?(paths: Paths, configuration: Configuration) {
    book = FeedBook(folder: paths.feeds)
    configured = configuration.feeds
    guard !book.subscriptions(configured: configured).isEmpty else { return nil }
    try? FileText.ensureFolder(paths.feeds)
  }

  func start() {
    let book = book
    let configured = configured
    thread.async {
      while true {
        // Read each round: `ctfo feed add` in another terminal counts from the next one.
        let subscriptions = book.subscriptions(configured: configured)
        let now = Int64(NextRequest.now())
        _ = book.refresh(subscriptions, now: now)
        let next = book.nextDue(subscriptions) ?? now + 60
        // At most a minute: a subscription added meanwhile waits no longer than that.
        let wait = max(1, min(next - Int64(NextRequest.now()), 60))
        sleep(UInt32(wait))
      }
    }
  }
}
