import CTFOWire
import CompressNIO
import Foundation
import NIOCore
import TestFixtures
import Testing

@testable import CTFOServer

/// Full pulls from memory: the shared part built once per revision, the body byte for byte
/// the JSON of the same pull built without it, in gzip too.
@Suite struct PullBodyTests {
  let folder: TemporaryFolder
  let store: SQLiteCardStore
  let cache = PullCache()

  init() throws {
    folder = try TemporaryFolder("ctfo-server-pulls")
    store = try SQLiteCardStore(path: folder.path("server.sqlite"))
    let cards = (1...40).map { i in
      Wire.Card(
        id: "c\(i)", type: i % 3 == 0 ? "haiku" : "fact", title: "Card \(i) / \"quoted\"",
        body: String(repeating: "é body \(i) ", count: i * 20), url: "https://example.org/\(i)")
    }
    _ = try store.load(
      cards: cards,
      types: [Wire.CardType(name: "fact", label: "Fact"), Wire.CardType(name: "haiku")])
    _ = try store.score(cardId: "c7", score: 0.75, at: 1_000)
    try store.notify(id: "n1", text: "hello", at: 2_000)
    _ = try store.issueToken(hash: [1], installId: "i1", expiresAt: .max)
    _ = try store.issueToken(hash: [2], installId: "i2", expiresAt: .max)
    var reaction = ReceivedEvent(
      sink: "ctfo", insertID: "r1", name: "CTFO", distinctID: "x", time: 5_000, payload: "{}")
    reaction.cardID = "c3"
    reaction.cardType = "haiku"
    try store.record(events: [reaction], install: "i1", at: 6_000)
    // Every unseen card scored for each install, off the pull as the server's task does.
    store.personalisation.perType = 100
    _ = try store.rescorePending(limit: 10, at: 6_000)
    _ = try store.setStatus(install: "i2", to: "suspended")
  }

  /// The pull as the store gives it whole, encoded in one piece: what the parts must equal.
  private func uncached(_ install: String, _ feed: PullFeed, time: Int64) throws -> [UInt8] {
    let changes = try store.changes(since: nil, feed: feed, bodyLimit: 4096, install: install)
    let key = CacheKey(
      epoch: try store.epoch(), feed: feed,
      revision: try store.revision(install: install, feed: feed))
    return try PullBody.json(
      Wire.Pull(
        cacheKey: key.text, full: true, serverTime: time, types: changes.types,
        cards: changes.cards, removed: changes.removed, scores: changes.scores,
        user: Wire.User(
          status: changes.userStatus ?? Changes.defaultStatus,
          notifications: changes.notifications)))
  }

  private func cached(_ install: String, _ feed: PullFeed, time: Int64, gzip: Bool = false)
    async throws -> ByteBuffer
  {
    let key = CacheKey(
      epoch: try store.epoch(), feed: feed,
      revision: try store.revision(install: install, feed: feed))
    let shared = try await cache.shared(store: store, feed: feed, bodyLimit: 4096)
    let own = try await store.ownChanges(install: install, feed: feed)
    return try PullBody.full(
      shared: shared, cacheKey: key.text, serverTime: time, own: own, gzip: gzip)
  }

  private static func gunzip(_ body: ByteBuffer) throws -> [UInt8] {
    var body = body
    return Array(buffer: try body.decompress(with: .gzip()))
  }

  @Test(arguments: [("i1", PullFeed.hot), ("i2", .hot), ("i1", .recent), ("i2", .recent)])
  func aFullPullFromItsPartsIsTheWholePullsJSON(install: String, feed: PullFeed) async throws {
    let whole = try uncached(install, feed, time: 123)
    #expect(Array(buffer: try await cached(install, feed, time: 123)) == whole)
    let again = try await cached(install, feed, time: 123)
    #expect(cache.hitCount == 1, "the second pull is from memory")
    #expect(Array(buffer: again) == whole)
    #expect(try Self.gunzip(try await cached(install, feed, time: 123, gzip: true)) == whole)
    let pull = try JSONDecoder().decode(Wire.Pull.self, from: Data(whole))
    #expect(pull.full && pull.cards.count == 40 && pull.serverTime == 123)
    #expect(pull.user?.status == (install == "i2" ? "suspended" : "active"))
    #expect(pull.user?.notifications.map(\.id) == ["n1"])
    if feed == .hot {
      // The operator's score, and each install's own: c3, which i1 saw, is scored for i2 alone.
      #expect(pull.scores.contains { $0.cardId == "c7" && $0.score == 0.75 })
      #expect(pull.scores.contains { $0.cardId == "c3" } == (install == "i2"))
      #expect(pull.scores.contains { $0.cardId == "c6" && $0.score > 1 })
    }
  }

  @Test func aChangeOfCardScoreOrNotificationMovesTheKeyAndTheBody() async throws {
    var last = Array(buffer: try await cached("i1", .hot, time: 1))
    let changes: [(String, () throws -> Void)] = [
      ("a score", { _ = try store.score(cardId: "c1", score: 0.9, at: 3_000) }),
      ("a notification", { try store.notify(id: "n2", text: "news", at: 4_000) }),
      (
        "a card",
        {
          _ = try store.load(
            cards: [Wire.Card(id: "only", type: "fact", body: "the one left")],
            types: [Wire.CardType(name: "fact", label: "Fact")])
        }
      ),
    ]
    for (what, change) in changes {
      try change()
      let body = Array(buffer: try await cached("i1", .hot, time: 1))
      #expect(body != last, "after \(what)")
      #expect(body == (try uncached("i1", .hot, time: 1)), "after \(what)")
      #expect(try Self.gunzip(try await cached("i1", .hot, time: 1, gzip: true)) == body)
      last = body
    }
    #expect(cache.hitCount == 3, "each revision built once, then from memory")
  }

  @Test func anInstallsOwnChangeIsNotCachedForOthers() async throws {
    _ = try await cached("i2", .hot, time: 1)
    _ = try store.setStatus(install: "i2", to: "active")
    let body = Array(buffer: try await cached("i2", .hot, time: 1))
    #expect(cache.hitCount == 1, "the shared part did not change")
    #expect(body == (try uncached("i2", .hot, time: 1)))
    #expect(try JSONDecoder().decode(Wire.Pull.self, from: Data(body)).user?.status == "active")
  }

  @Test(arguments: [0, 1, 300, 65535, 65536, 140_000])
  func storedBlocksOfAnyLengthInflateToTheirBytes(count: Int) throws {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    let part = PullBody.Deflated(
      bytes: PullBody.stored(bytes, last: true), crc: PullBody.crc(bytes), count: count)
    #expect(try Self.gunzip(PullBody.gzipped([part])) == bytes)
  }

  @Test func anInstallsManyOwnScoresAreCompressedAndStillTheWholePull() async throws {
    var own = Changes(full: true)
    own.scores = (1...3000).map { Wire.Score(cardId: "c\($0 % 40 + 1)", score: 0.5, scoredAt: 1) }
    let shared = try await cache.shared(store: store, feed: .hot, bodyLimit: 4096)
    let plain = try PullBody.full(
      shared: shared, cacheKey: "k", serverTime: 1, own: own, gzip: false)
    let zipped = try PullBody.full(
      shared: shared, cacheKey: "k", serverTime: 1, own: own, gzip: true)
    #expect(try Self.gunzip(zipped) == Array(buffer: plain))
    #expect(zipped.readableBytes < plain.readableBytes / 4, "the scores are compressed")
    let pull = try JSONDecoder().decode(Wire.Pull.self, from: Data(Array(buffer: plain)))
    #expect(pull.scores.count == 3000 + 1)
  }

  @Test(arguments: [
    ("/v1/pull", String??.some(nil)), ("/v1/pull?feed=hot", "hot"),
    ("/v1/pull?x=1&feed=recent", "recent"), ("/v1/pull?feed=", ""), ("/v1/pull?x=1", .some(nil)),
    ("/v1/pull?feed=h%6Ft", nil), ("/v1/pull?feed=hot&feed=recent", nil),
    ("/v1/pull?feed=a+b", nil),
  ])
  func theFeedOfAPullAnsweredAtOnce(path: String, feed: String??) {
    #expect(PullAsk.feedAtOnce(path: path) == feed)
  }

  @Test func aHeldKeyIsHeldInEverySpelling() throws {
    let key = CacheKey(epoch: "e1", feed: .hot, revision: 7)
    for header in [#""e1.hot.7""#, #""e1.hot.7-gzip""#, #"W/"e1.hot.7""#, #" "e1.hot.7" "#] {
      #expect(try PullAsk(feed: nil, ifNoneMatch: header, acceptEncoding: []).holds(key))
    }
    for header in [#""e1.hot.6""#, #""e2.hot.7""#, #""e1.recent.7""#, "e1.hot.7", ""] {
      #expect(!(try PullAsk(feed: nil, ifNoneMatch: header, acceptEncoding: []).holds(key)))
    }
  }

  @Test func aDeltaIsGzippedWhole() throws {
    let json = Array(#"{"cacheKey":"k","full":false}"#.utf8)
    #expect(try Self.gunzip(try PullBody.gzip(json)) == json)
  }

  @Test(arguments: [
    ("gzip", true), ("gzip, deflate, br", true), ("br;q=1, gzip;q=0.5", true),
    ("gzip;q=0", false), ("identity", false), ("*", true), ("*, gzip;q=0", false),
    ("x-gzip", true), ("GZIP", true), ("", false), ("gzip ;\tq=0", false),
    ("x-GZIP; Q=0.5", true), (" , gzip", true), ("gzipper", false),
  ])
  func acceptEncoding(header: String, gzip: Bool) {
    #expect(Routes.acceptsGzip(header.isEmpty ? [] : [header]) == gzip)
  }

  @Test func aGzipETagNamesTheSameKey() throws {
    let key = CacheKey(epoch: "e1", feed: .hot, revision: 12)
    #expect(CacheKey(header: "\"e1.hot.12-gzip\"") == key)
    #expect(CacheKey(header: "W/\"e1.hot.12-gzip\"") == key)
    #expect(CacheKey(header: "\"e1.hot.12\"") == key)
    #expect(CacheKey(header: "\"e1.hot.12-br\"") == nil)
  }
}
