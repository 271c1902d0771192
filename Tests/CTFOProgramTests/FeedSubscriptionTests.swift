import CardPreparation
import Decks
import FeedCore
import Foundation
import HTTP
import Synchronization
import TestFixtures
import Testing

@testable import CTFOProgram

/// Feeds as decks: real-looking RSS, Atom and JSON Feed documents and hostile ones, served on
/// loopback from files in Tests/Feeds, fetched by `FeedBook` into deck files.
@Suite struct FeedSubscriptionTests {
  static let feeds: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }
    return url.path + "/Feeds"
  }()

  static func file(_ name: String) -> String {
    (try? String(contentsOfFile: "\(feeds)/\(name)", encoding: .utf8)) ?? ""
  }

  static func ok(_ body: String, headers: [String] = []) -> String {
    (["HTTP/1.1 200 OK", "Content-Length: \(body.utf8.count)"] + headers).joined(
      separator: "\r\n") + "\r\n\r\n" + body
  }

  /// A home's feed book, fetching from the peer, due at once.
  static func book(_ folder: TemporaryFolder) -> FeedBook {
    FeedBook(folder: folder.path("feeds"), floor: 60)
  }

  static func cards(_ book: FeedBook, _ name: String) -> [Card] {
    DeckCheck.read([book.deckPath(name)]).cards
  }

  @Test func rssAtomAndJSONFeedsBecomeDecksOfPlainText() throws {
    let peer = try ScriptedPeer { request in
      let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? ""
      return Self.ok(Self.file(String(path.dropFirst())))
    }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-feeds")
    let book = Self.book(folder)
    let base = "http://127.0.0.1:\(peer.port)"
    let subscriptions = [
      FeedBook.Subscription(name: "bits", url: "\(base)/rss.xml"),
      FeedBook.Subscription(name: "lwn", url: "\(base)/atom.xml"),
      FeedBook.Subscription(name: "json", url: "\(base)/feed.json"),
    ]
    let reports = book.refresh(subscriptions, now: 1000)
    #expect(reports.map(\.added) == [3, 3, 2])
    #expect(reports.allSatisfy { $0.problem == nil })

    let bits = Self.cards(book, "bits")
    #expect(
      bits.map(\.title) == [
        "Debian 13.3 released",
        "New Debian Developers and Maintainers (September and October 2026)",
        "DebConf27 will be held in Santa Fe",
      ])
    #expect(bits[0].body.hasPrefix("The Debian project is pleased"))
    #expect(
      bits[0].body.contains("Those who frequently install updates from security.debian.org won’t"))
    #expect(!bits.contains { $0.body.contains("<") || $0.body.contains("alert") })
    #expect(
      bits[1].body
        == "The following contributors got their Debian Developer accounts in the last two months: Jane Doe and Max Mustermann.\n\nCongratulations!"
    )
    #expect(bits[0].source == "Bits from Debian · 2026-11-28")
    #expect(bits[0].url == "https://bits.debian.org/2026/11/debian-13-3-released.html")
    let header = DeckCheck.read([book.deckPath("bits")]).types
    #expect(header == [CardType(name: "bits", label: "Bits from Debian")])

    let lwn = Self.cards(book, "lwn")
    #expect(lwn[0].title == "A look at the 6.19 merge window — part 1")
    #expect(
      lwn[0].body
        == "As of this writing, 7,412 non-merge changesets have been pulled into the mainline for the 6.19 release."
    )
    #expect(
      lwn[1].body
        == "Three years after the first Rust code was merged, a look at where things stand.\n\nSecond paragraph."
    )
    // A javascript: link is dropped; the entry stays.
    #expect(lwn[2].title == "Dangerous link" && lwn[2].url == nil)

    let json = Self.cards(book, "json")
    #expect(json[0].body == "Plain text never goes out of style.")
    #expect(
      json[1].title == nil && json[1].body == "A post without a title.\n\nTwo paragraphs of it.")
    #expect(json[0].source == "Daring Fireball-ish · 2026-12-01")

    // Every request names ctfo, and none waits for another.
    #expect(peer.requests.count == 3)
    #expect(peer.requests.allSatisfy { $0.contains("User-Agent: ctfo/") })
  }

  /// A feed that changes between fetches: validators sent back, a 304 changes nothing, new
  /// entries join and an entry gone from the feed stays.
  @Test func aChangingFeedIsFetchedConditionallyAndKeepsWhatLeft() throws {
    let first = """
      <rss version="2.0"><channel><title>Changing</title><ttl>30</ttl>
      <item><title>One</title><guid>1</guid><description>first</description></item>
      <item><title>Two</title><guid>2</guid><description>second</description></item>
      </channel></rss>
      """
    let second = """
      <rss version="2.0"><channel><title>Changing</title><ttl>30</ttl>
      <item><title>Three</title><guid>3</guid><description>third</description></item>
      <item><title>Two</title><guid>2</guid><description>second</description></item>
      </channel></rss>
      """
    let served = Mutex(0)
    let peer = try ScriptedPeer { request in
      let count = served.withLock { count -> Int in
        count += 1
        return count
      }
      switch count {
      case 1:
        return Self.ok(
          first, headers: ["ETag: \"v1\"", "Last-Modified: Tue, 01 Dec 2026 10:00:00 GMT"])
      case 2: return "HTTP/1.1 304 Not Modified\r\nContent-Length: 0\r\n\r\n"
      default: return Self.ok(second, headers: ["ETag: \"v2\""])
      }
    }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-feeds")
    let book = Self.book(folder)
    let feed = [FeedBook.Subscription(name: "changing", url: "http://127.0.0.1:\(peer.port)/f")]
    #expect(book.refresh(feed, now: 0).map(\.added) == [2])
    // `ttl` is 30 minutes: not due before, due after.
    #expect(book.state(of: "changing").nextFetch == 1800)
    #expect(book.refresh(feed, now: 1000).isEmpty)
    #expect(book.refresh(feed, now: 1800) == [FeedBook.Report(name: "changing", added: nil)])
    #expect(peer.requests[1].contains("If-None-Match: \"v1\""))
    #expect(peer.requests[1].contains("If-Modified-Since: Tue, 01 Dec 2026 10:00:00 GMT"))
    #expect(!peer.requests[0].contains("If-None-Match"))
    #expect(book.refresh(feed, now: 3600).map(\.added) == [1])
    #expect(Self.cards(book, "changing").map(\.title) == ["Three", "Two", "One"])
    #expect(book.state(of: "changing").etag == "\"v2\"")
  }

  @Test func aFeedKeepsAtMostItsLimitNewestFirst() {
    let card = { (n: Int) in Card(id: "c\(n)", type: "t", body: "\(n)") }
    let old = (0..<500).map(card)
    let merged = FeedDeck.merge(old: old, new: [card(900), card(3)])
    #expect(merged.count == 500)
    #expect(merged.prefix(3).map(\.id) == ["c900", "c3", "c0"])
    #expect(!merged.contains { $0.id == "c499" })
  }

  /// Billion laughs and an external entity: refused before any entity is read, the failure
  /// kept for `ctfo status` and the next fetch put off.
  @Test(arguments: ["billion-laughs.xml", "external-entity.xml"])
  func hostileXMLIsRefused(name: String) throws {
    let peer = try ScriptedPeer { _ in Self.ok(Self.file(name)) }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-feeds")
    let book = Self.book(folder)
    let feed = [FeedBook.Subscription(name: "hostile", url: "http://127.0.0.1:\(peer.port)/x")]
    let report = try #require(book.refresh(feed, now: 0).first)
    #expect(report.problem?.contains("document type declaration") == true)
    #expect(access(book.deckPath("hostile"), F_OK) != 0)
    let state = book.state(of: "hostile")
    #expect(state.failures == 1 && state.nextFetch == 7200)
    #expect(book.refresh(feed, now: 0).isEmpty)
    _ = book.refresh(feed, now: 7200)
    #expect(book.state(of: "hostile").nextFetch == 7200 + 14_400)
    #expect(peer.requests.count == 2)
    #expect(FeedCommand.describe(feed[0], book.state(of: "hostile")).contains("failing (2)"))
  }

  @Test func serverErrorsAndGarbageBackOff() throws {
    let peer = try ScriptedPeer { request in
      request.hasPrefix("GET /500")
        ? "HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n" : Self.ok("\u{1}\u{2} garbage")
    }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-feeds")
    let book = Self.book(folder)
    let base = "http://127.0.0.1:\(peer.port)"
    let reports = book.refresh(
      [.init(name: "a", url: "\(base)/500"), .init(name: "b", url: "\(base)/junk")], now: 0)
    #expect(
      reports.map(\.problem) == [
        "the feed answered 500", "not a feed: text outside the root element",
      ])
  }

  /// Redirects: http(s) only, at most five, and never from a public feed to a private address.
  final class Asked: Sendable {
    let list = Mutex<[String]>([])
  }

  @Test func redirectsFollowTheRules() {
    func fetcher(_ locations: [String: String]) -> (FeedFetcher, Asked) {
      let asked = Asked()
      var fetcher = FeedFetcher()
      fetcher.resolve = { host in
        host.hasPrefix("public")
          ? [[93, 184, 216, 34]] : host == "intranet" ? [[10, 0, 0, 5]] : [[127, 0, 0, 1]]
      }
      fetcher.send = { url, _, _ in
        asked.list.withLock { $0.append(url.description) }
        if let location = locations[url.description] {
          return HTTPResponse(status: 302, headers: [("Location", location)])
        }
        return HTTPResponse(status: 200, body: Array("<rss/>".utf8))
      }
      return (fetcher, asked)
    }
    let toFile = fetcher(["https://public.example/feed": "file:///etc/passwd"])
    guard
      case .failed(let why) = toFile.0.fetch(
        "https://public.example/feed", etag: nil, lastModified: nil)
    else {
      Issue.record("a redirect to file: was followed")
      return
    }
    #expect(why.contains("other than http(s)"))
    let inward = fetcher(["https://public.example/feed": "http://intranet/admin"])
    guard
      case .failed(let private_) = inward.0.fetch(
        "https://public.example/feed", etag: nil, lastModified: nil)
    else {
      Issue.record("a redirect to a private address was followed")
      return
    }
    #expect(private_.contains("private address"))
    #expect(inward.1.list.withLock { $0 } == ["https://public.example/feed"])
    // A feed on this machine may redirect on this machine; a public one to a public one.
    let local = fetcher(["http://localhost:8080/a": "/b"])
    guard case .fetched = local.0.fetch("http://localhost:8080/a", etag: nil, lastModified: nil)
    else {
      Issue.record("a redirect on this machine from a feed on it was refused")
      return
    }
    #expect(local.1.list.withLock { $0 } == ["http://localhost:8080/a", "http://localhost:8080/b"])
    var loop: [String: String] = [:]
    for n in 0..<10 { loop["https://public\(n).example/"] = "https://public\(n + 1).example/" }
    let endless = fetcher(loop)
    #expect(
      endless.0.fetch("https://public0.example/", etag: nil, lastModified: nil)
        == .failed("more than 5 redirects"))
    #expect(endless.1.list.withLock { $0 }.count == 6)
  }

  @Test func privateAddressesAreKnown() {
    for address: [UInt8] in [
      [127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [192, 168, 1, 1], [169, 254, 169, 254],
      [100, 64, 0, 1], [0, 0, 0, 0],
    ] {
      #expect(NetworkAddress.isPrivate(address), "\(address)")
    }
    for address: [UInt8] in [[93, 184, 216, 34], [172, 32, 0, 1], [8, 8, 8, 8]] {
      #expect(!NetworkAddress.isPrivate(address), "\(address)")
    }
    let loopback6 = [UInt8](repeating: 0, count: 15) + [1]
    let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1]
    let unique = [0xFD] + [UInt8](repeating: 0, count: 15)
    let global = [0x26, 0x06] + [UInt8](repeating: 1, count: 14)
    #expect(NetworkAddress.isPrivate(loopback6) && NetworkAddress.isPrivate(mapped))
    #expect(NetworkAddress.isPrivate(unique) && !NetworkAddress.isPrivate(global))
  }

  /// Escapes, bidi controls and a file: link in a feed: the deck keeps the text as sent, the
  /// link goes, and what is drawn (the card sanitised as every card is) has none of them.
  @Test func escapesInAFeedNeverReachTheScreen() throws {
    let peer = try ScriptedPeer { _ in Self.ok(Self.file("escapes.xml")) }
    defer { peer.stop() }
    let folder = try TemporaryFolder("ctfo-feeds")
    let book = Self.book(folder)
    _ = book.refresh([.init(name: "esc", url: "http://127.0.0.1:\(peer.port)/")], now: 0)
    let card = try #require(Self.cards(book, "esc").first)
    #expect(card.url == nil)
    let shown = Preparation.sanitized(card)
    for text in [shown.title ?? "", shown.body, shown.source ?? ""] {
      #expect(
        !text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\u{202E}" })
    }
  }

  @Test func opmlExportsListTheirFeedsAtAnyDepth() throws {
    let outlines = try OPML.feeds(in: Array(Self.file("subscriptions.opml").utf8))
    #expect(outlines.map(\.title) == ["Bits from Debian", "LWN.net headlines", "A JSON feed"])
    #expect(outlines.map(\.url).allSatisfy { $0.hasPrefix("http://127.0.0.1:PORT/") })
  }
}
