import CTFOWire
import FeedCore
import Foundation
import Testing

@testable import Store

/// The server's pulls in the state database: cards beside the decks' in one catalog, scores as
/// last-writer-wins registers that a seen card no longer takes, and the cache key committed with
/// the change it names.
struct ServerStoreTests {
  private let server = "http://127.0.0.1:8080"

  private func card(_ id: String, _ type: String = "news", body: String? = nil) -> Wire.Card {
    Wire.Card(id: id, type: type, title: "Title \(id)", body: body ?? "Body of \(id).")
  }

  private func pull(
    key: String, full: Bool = false, types: [Wire.CardType] = [], cards: [Wire.Card] = [],
    removed: [String] = [], scores: [Wire.Score] = []
  ) -> Wire.Pull {
    Wire.Pull(
      cacheKey: key, full: full, types: types, cards: cards, removed: removed, scores: scores)
  }

  @discardableResult
  private func apply(_ home: TestHome, _ pull: Wire.Pull) throws -> ServerStore.Applied {
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.cacheKeys["hot"] = pull.cacheKey
    return try store.apply(pull, session: session, at: 1000)
  }

  private func ids(_ home: TestHome, type: String) throws -> [String] {
    let reader = home.index.reader()
    let count = try home.index.catalog().first { $0.type.name == type }?.cards ?? 0
    return try (0..<count).map { try reader.card(type: type, ordinal: $0)?.id ?? "?" }.sorted()
  }

  @Test func aFullPullPutsTheServersTypesAndCardsBesideTheDecks() throws {
    let home = try TestHome()
    let deck = try home.deck(
      "facts.jsonl",
      [
        #"{"deck":"f","types":{"fact":{"label":"Fact"}}}"#,
        #"{"id":"f1","type":"fact","body":"b"}"#,
      ])
    _ = try home.index.sync(decks: [deck])
    let applied = try apply(
      home,
      pull(
        key: "k1", full: true,
        types: [Wire.CardType(name: "news", label: "News", colour: "yellow")],
        cards: [card("n1"), card("n2")]))
    #expect(applied.cards == 2)
    // A later sync of the decks keeps the server's cards: no file lists them.
    _ = try home.index.sync(decks: [deck])
    let catalog = try home.index.catalog()
    #expect(catalog.map(\.type.name).sorted() == ["fact", "news"])
    #expect(catalog.first { $0.type.name == "news" }?.type.label == "News")
    #expect(catalog.first { $0.type.name == "news" }?.type.colour == "yellow")
    #expect(try ids(home, type: "news") == ["n1", "n2"])
    #expect(try ServerStore(database: home.database).session(for: server).cacheKeys["hot"] == "k1")
  }

  /// A server card with the id of a card of the user's decks (or a bundled one) never
  /// replaces its text, in the app's index as at the next launch; a server type of a local
  /// type's name never relabels it. The server's other cards and types come in.
  @Test(arguments: [false, true])
  func serverCardsAndTypesNeverShadowLocalOnes(keepOrdinals: Bool) throws {
    let home = try TestHome()
    let deck = try home.deck(
      "mine.jsonl",
      [
        #"{"deck":"mine","types":{"word":{"label":"Word","colour":"green"}}}"#,
        #"{"id":"u1","type":"word","body":"My own card."}"#,
        #"{"id":"u3","type":"word","body":"Mine too."}"#,
      ])
    _ = try home.index.sync(decks: [deck])
    let store = ServerStore(database: home.database)
    let session = try store.session(for: server)
    let spoof = Wire.Card(id: "u1", type: "word", body: "SPOOFED USER CARD")
    let bodiless = Wire.Card(id: "u3", type: "word", body: nil, bodyOmitted: true)
    let applied = try store.apply(
      pull(
        key: "k1", full: true, types: [Wire.CardType(name: "word", label: "SPOOFED")],
        cards: [spoof, bodiless, card("s1", "word")]),
      session: session, at: 1000, keepOrdinals: keepOrdinals)
    #expect(applied.changed.map(\.id) == (keepOrdinals ? ["s1"] : []), "the feed keeps its own")
    #expect(try store.nextMissingBody(skipping: []) == nil, "no body is fetched for a hidden card")
    for launch in [false, true] {
      if launch {
        try store.compactIfNeeded()
        _ = try home.index.sync(decks: [deck])
      }
      #expect(try home.index.card(id: "u1")?.body == "My own card.", "launch: \(launch)")
      #expect(try ids(home, type: "word") == ["s1", "u1", "u3"], "launch: \(launch)")
      let word = try home.index.catalog().first { $0.type.name == "word" }?.type
      #expect(word?.label == "Word" && word?.colour == "green", "launch: \(launch)")
    }
    // A delta that sends the card again does not bring it in either; once the user's deck
    // no longer has it, the server's card shows.
    try apply(home, pull(key: "k2", cards: [spoof]))
    #expect(try home.index.card(id: "u1")?.body == "My own card.")
    let emptied = try home.deck("mine.jsonl", [#"{"id":"u3","type":"word","body":"Mine too."}"#])
    _ = try home.index.sync(decks: [emptied])
    #expect(try home.index.card(id: "u1")?.body == "SPOOFED USER CARD")
  }

  @Test func aDeltaUpdatesAddsAndRemovesAndKeepsOrdinalsDense() throws {
    let home = try TestHome()
    try apply(home, pull(key: "k1", full: true, cards: [card("n1"), card("n2"), card("n3")]))
    try apply(
      home,
      pull(
        key: "k2", cards: [Wire.Card(id: "n2", type: "news", body: "New body."), card("n4")],
        removed: ["n1", "missing"]))
    #expect(try ids(home, type: "news") == ["n2", "n3", "n4"])
    #expect(try home.index.card(id: "n2")?.body == "New body.")
    // A full pull replaces everything.
    try apply(home, pull(key: "k3", full: true, cards: [card("n9")]))
    #expect(try ids(home, type: "news") == ["n9"])
  }

  /// The running app's pulls move no indexed card (the feed built at launch numbers
  /// them so), say what changed and where removed cards were, and leave holes that
  /// `compactIfNeeded` closes at the next launch.
  @Test func aPullThatKeepsOrdinalsMovesNoCardAndSaysWhatChanged() throws {
    let home = try TestHome()
    try apply(home, pull(key: "k1", full: true, cards: [card("n1"), card("n2"), card("n3")]))
    let before = try ["n1", "n2", "n3"].map { try home.index.key(of: $0) }
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.cacheKeys["hot"] = "k2"
    let applied = try store.apply(
      pull(
        key: "k2",
        cards: [
          card("n3"),  // sent again as stored: not a change
          Wire.Card(id: "n2", type: "news", body: "New body."), card("n4"),
        ],
        removed: ["n1"]),
      session: session, at: 1000, keepOrdinals: true)
    #expect(applied.changed.map(\.id) == ["n2", "n4"])
    #expect(applied.changed.first?.body == "New body.")
    #expect(applied.removedKeys == ["n1": before[0]!])
    // n2 and n3 kept their ordinals; n1's is a hole; n4 took a new one past them.
    #expect(try home.index.key(of: "n2") == before[1])
    #expect(try home.index.key(of: "n3") == before[2])
    #expect(try home.index.key(of: "n4")?.ordinal == 3)
    #expect(try home.index.catalog().first { $0.type.name == "news" }?.cards == 4)
    try store.compactIfNeeded()
    #expect(try ids(home, type: "news") == ["n2", "n3", "n4"])
    #expect(try home.index.catalog().first { $0.type.name == "news" }?.cards == 3)
  }

  @Test func aCardSentWithoutItsBodyIsListedWithAnEmptyOne() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    let session = try store.session(for: server)
    let applied = try store.apply(
      pull(key: "k1", full: true, cards: [Wire.Card(id: "n1", type: "news", body: nil)]),
      session: session, at: 1000, keepOrdinals: true)
    #expect(applied.changed.map(\.body) == [""])
  }

  /// A pull larger than a transaction's chunk (`ServerStore.applyChunk`) ends as one
  /// transaction would: a full pull keeps exactly its cards (a card that changed type moves),
  /// ordinals stay dense, and the cache key is the new one.
  @Test func aPullOfManyChunksEndsAsOneTransactionWould() throws {
    let home = try TestHome()
    let chunk = ServerStore.applyChunk
    let first = (0..<(2 * chunk + 100)).map { card("a\($0)", $0 % 3 == 0 ? "tips" : "news") }
    #expect(try apply(home, pull(key: "k1", full: true, cards: first)).cards == first.count)
    #expect(try ids(home, type: "news").count + ids(home, type: "tips").count == first.count)
    // Half the ids again (every tip now news), half new ones; the rest must go.
    let kept = (0..<(chunk + 50)).map { card("a\($0)", "news") }
    let added = (0..<(chunk + 50)).map { card("b\($0)", "tips") }
    let applied = try apply(home, pull(key: "k2", full: true, cards: kept + added))
    #expect(applied.cards == kept.count + added.count)
    #expect(try ids(home, type: "news") == kept.map(\.id).sorted())
    #expect(try ids(home, type: "tips") == added.map(\.id).sorted())
    #expect(try home.index.card(id: "a\(2 * chunk)") == nil, "not in the full pull: gone")
    #expect(try ServerStore(database: home.database).session(for: server).cacheKeys["hot"] == "k2")
    // The chunks commit without an fsync; the writer's own commits still wait for the disk.
    #expect(try home.database.pragma("synchronous") == "2")
    // A delta of many chunks with removals.
    let delta = (0..<(chunk + 10)).map { card("c\($0)", "news") }
    try apply(home, pull(key: "k3", cards: delta, removed: kept.map(\.id)))
    #expect(try ids(home, type: "news") == delta.map(\.id).sorted())
  }

  @Test func cardsWithABadIdOrTypeAreLeftOutAndTheRestApplied() throws {
    let home = try TestHome()
    let applied = try apply(
      home,
      pull(
        key: "k", full: true,
        cards: [
          card("ok"), card("bad\u{0}id"), card("", "news"), card("x", "ty\u{7}pe"),
          card("empty", body: "  "),
        ]))
    #expect(applied.cards == 1)
    #expect(applied.refused.count == 4)
    #expect(try ids(home, type: "news") == ["ok"])
  }

  /// The deck rules for names (bidi and invisible characters too) and
  /// for a card's size (1 MiB) hold for the server's cards; each card left out is named.
  @Test func cardsWithAnInvisibleCharacterOrOverAMebibyteAreLeftOutAndNamed() throws {
    let home = try TestHome()
    let long = String(repeating: "b", count: ServerStore.cardLimit + 1)
    let applied = try apply(
      home,
      pull(
        key: "k", full: true,
        cards: [
          card("ok"), card("rtl\u{202E}"), card("zwj", "ne\u{200D}ws"), card("ls\u{2028}"),
          card("long", body: long), card("fits", body: String(long.dropLast(100))),
        ]))
    #expect(try ids(home, type: "news") == ["fits", "ok"])
    #expect(
      applied.refused == [
        "rtl\u{202E}: \"id\" has an invisible or bidi control character",
        "zwj: \"type\" has an invisible or bidi control character",
        "ls\u{2028}: \"id\" has an invisible or bidi control character",
        "long: \(ServerStore.cardTooLong)",
      ])
  }

  /// Elements of `cards` that are no card are named by the decoder; applying
  /// the pull names them with the others left out.
  @Test func cardsTheDecoderRefusedAreNamedWithTheOthers() throws {
    let home = try TestHome()
    var pull = pull(key: "k", full: true, cards: [card("ok"), card("")])
    pull.refused = ["card 2 of the pull: no \"id\""]
    let applied = try apply(home, pull)
    #expect(applied.refused == ["card 2 of the pull: no \"id\"", #": "id" is empty"#])
    #expect(try ids(home, type: "news") == ["ok"])
  }

  @Test func scoresAreLastWriterWinsAndASeenCardKeepsItsOwn() throws {
    let home = try TestHome()
    try apply(home, pull(key: "k1", full: true, cards: [card("a"), card("b"), card("c")]))
    try apply(
      home,
      pull(
        key: "k2",
        scores: [
          .init(cardId: "a", score: 0.5, scoredAt: 10), .init(cardId: "a", score: 0.9, scoredAt: 5),
          .init(cardId: "b", score: 0.2, scoredAt: 10),
          .init(cardId: "b", score: 0.3, scoredAt: 10),
          .init(cardId: "c", score: 0.7, scoredAt: 1),
        ]))
    _ = try home.state.appendShown(
      [try #require(try home.index.card(id: "c"))], time: 0)
    try apply(home, pull(key: "k3", scores: [.init(cardId: "c", score: 0.1, scoredAt: 99)]))
    let scores = try ServerStore(database: home.database).scores(of: ["news"])
    var byId: [String: ScoredPool.Score] = [:]
    let reader = home.index.reader()
    for entry in scores {
      byId[try reader.card(type: entry.type, ordinal: entry.ordinal)!.id] = entry.score
    }
    #expect(byId["a"] == ScoredPool.Score(value: 0.5, timestamp: 10), "the later scoredAt")
    #expect(byId["b"] == ScoredPool.Score(value: 0.3, timestamp: 10), "a tie goes to the value")
    #expect(byId["c"] == nil, "a seen card is not scored for the feed")
  }

  @Test func aScoreThatArrivesBeforeItsCardWaitsForIt() throws {
    let home = try TestHome()
    try apply(
      home, pull(key: "k1", full: true, scores: [.init(cardId: "late", score: 0.8, scoredAt: 3)]))
    #expect(try ServerStore(database: home.database).scores(of: ["news"]).isEmpty)
    try apply(home, pull(key: "k2", cards: [card("late")]))
    #expect(
      try ServerStore(database: home.database).scores(of: ["news"]).map(\.score)
        == [ScoredPool.Score(value: 0.8, timestamp: 3)])
  }

  @Test func anotherServerStartsOverButKeepsTheInstallId() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    let first = try store.session(for: server)
    try apply(home, pull(key: "k1", full: true, cards: [card("n1")]))
    let other = try store.session(for: "https://cards.example.org")
    #expect(other.installId == first.installId)
    #expect(other.cacheKeys.isEmpty && other.token == nil)
    #expect(try home.index.catalog().contains { $0.type.name == "news" } == false)
  }

  /// An older version stored any offset an auth gave: read back, it counts
  /// as none and its token is dropped, so that the next request measures it again; an event
  /// recorded meanwhile is stamped with this machine's time.
  @Test func aStoredClockOffsetPastAYearIsDroppedWithItsToken() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.token = "t"
    session.clockOffset = .max - 5
    try store.save(session)
    let read = try store.session(for: server)
    #expect(read.clockOffset == 0 && read.token == nil)
    let outbox = Outbox(database: home.database)
    try outbox.record(
      [AnalyticsEvent("Focus", [:])], at: 1_700_000_000, context: .init(app: "t", locale: "C"))
    #expect(try outbox.all().map(\.time).allSatisfy { $0 == 1_700_000_000_000 })
  }

  /// `ctfo status` lists only the notifications still live on the server's
  /// clock (this machine's plus the offset).
  @Test func theStatusLeavesOutExpiredNotifications() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.clockOffset = 500
    let notes = [
      Wire.Notification(id: "old", text: "Expired", createdAt: 1, expiresAt: 1_400),
      Wire.Notification(id: "live", text: "Live", createdAt: 2, expiresAt: 1_600),
      Wire.Notification(id: "always", text: "Always", createdAt: 3),
    ]
    try store.apply(
      Wire.Pull(cacheKey: "k", full: true, user: Wire.User(status: nil, notifications: notes)),
      session: session, at: 0)
    #expect(try store.status(at: 1_000).notifications == ["Live", "Always"])
  }

  /// The app's notices are those `ctfo status` lists, on the server's clock: a machine whose
  /// clock is behind sees no expired notice, and one ahead still sees the live ones.
  @Test(arguments: [500, -500] as [Int64])
  func theAppsNoticesAreOnTheServersClockAsTheStatusIs(offset: Int64) throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.clockOffset = offset
    let notes = [
      Wire.Notification(id: "early", text: "Until 900", createdAt: 1, expiresAt: 900),
      Wire.Notification(id: "late", text: "Until 1100", createdAt: 2, expiresAt: 1_100),
      Wire.Notification(id: "later", text: "Until 1600", createdAt: 3, expiresAt: 1_600),
    ]
    try store.apply(
      Wire.Pull(cacheKey: "k", full: true, user: Wire.User(status: nil, notifications: notes)),
      session: session, at: 0)
    let live = offset > 0 ? ["later"] : ["later", "late", "early"]
    #expect(try store.notices(at: 1_000).map(\.id) == live)
    #expect(
      try store.notices(at: 1_000).map(\.text).sorted()
        == (try store.status(at: 1_000).notifications.sorted()))
  }

  @Test func theDatabaseFileIsTheOwnersAlone() throws {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server)
    session.token = "secret"
    try store.save(session)
    let mode =
      try FileManager.default.attributesOfItem(atPath: home.database.path)[.posixPermissions]
      as? Int
    #expect(mode == 0o600)
  }
}

/// A card a pull sent without its body gets it while it is prepared, or is skipped.
struct BodyFetchTests {
  private func home() throws -> TestHome {
    let home = try TestHome()
    let store = ServerStore(database: home.database)
    var session = try store.session(for: "http://127.0.0.1:1")
    session.cacheKeys["hot"] = "k"
    try store.apply(
      Wire.Pull(
        cacheKey: "k", full: true,
        cards: [Wire.Card(id: "long", type: "news", body: nil, bodyOmitted: true)]),
      session: session, at: 0)
    return home
  }

  @Test func thePreparationFetchesTheBodyAndTheCommandLineSkipsTheCard() async throws {
    let home = try home()
    let catalog = try home.index.catalog()
    let fetched = DeckSource(
      catalog: catalog, reader: home.index.reader(), fetchBody: { id in "Body of \(id)." })
    #expect(try await fetched.fetch(type: "news", ordinal: 0).body == "Body of long.")
    let offline = DeckSource(catalog: catalog, reader: home.index.reader())
    #expect(throws: MissingCard.self) { try offline.card(type: "news", ordinal: 0) }
    await #expect(throws: MissingCard.self) { try await offline.fetch(type: "news", ordinal: 0) }
  }

  @Test func aFetchThatFailsSkipsTheCardAndASavedBodyIsKept() async throws {
    struct Down: Error {}
    let home = try home()
    let catalog = try home.index.catalog()
    let failing = DeckSource(
      catalog: catalog, reader: home.index.reader(), fetchBody: { _ in throw Down() })
    await #expect(throws: Down.self) { try await failing.fetch(type: "news", ordinal: 0) }
    try ServerStore(database: home.database).saveBody(id: "long", body: "Saved.")
    let offline = DeckSource(catalog: catalog, reader: home.index.reader())
    #expect(try offline.card(type: "news", ordinal: 0).body == "Saved.")
  }
}
