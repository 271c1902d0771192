import Testing

@testable import CTFOServer

/// What a pull's `If-None-Match` says the client holds (`PullAsk`): a key names its store (the
/// epoch), its feed and its revision, and only a key of this store starts a delta or earns a
/// `304`. A store made again (its file deleted, the same decks loaded) starts its revisions
/// over; a client holding the old store's key must get everything again.
struct PullAskTests {
  private func ask(_ tag: String, feed: String = "hot") throws -> PullAsk {
    try PullAsk(feed: feed, ifNoneMatch: tag, acceptEncoding: [])
  }

  @Test func aKeyOfAStoreMadeAgainIsNeitherHeldNorADeltasStart() throws {
    let old = CacheKey(epoch: "old1", feed: .hot, revision: 7)
    let current = CacheKey(epoch: "new2", feed: .hot, revision: 7)
    for tag in ["\"\(old.text)\"", "W/\"\(old.text)\"", "\"\(old.text)-gzip\""] {
      let held = try ask(tag)
      #expect(!held.holds(current), "\(tag)")
      #expect(held.since(current) == nil, "\(tag)")
    }
    // The same key of this store is held, and a delta starts from an older one of it.
    #expect(try ask("\"\(current.text)\"").holds(current))
    let older = CacheKey(epoch: "new2", feed: .hot, revision: 3)
    #expect(try ask("\"\(older.text)\"").since(current) == 3)
  }

  @Test func aKeyOfTheOtherFeedOrAheadOfTheStoreStartsNoDelta() throws {
    let current = CacheKey(epoch: "e", feed: .hot, revision: 7)
    let recent = CacheKey(epoch: "e", feed: .recent, revision: 5)
    let ahead = CacheKey(epoch: "e", feed: .hot, revision: 9)
    #expect(try ask("\"\(recent.text)\"").since(current) == nil)
    #expect(try ask("\"\(ahead.text)\"").since(current) == nil)
    #expect(!(try ask("\"\(recent.text)\"").holds(current)))
  }
}
