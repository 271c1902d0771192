import CTFOWire
import Foundation
import Synchronization
import TestFixtures
import Testing

@testable import CTFOServer

/// The server's stores on their own, without the client or HTTP, each test run on SQLite and
/// on PostgreSQL: decks loaded by revision, pulls of what changed, events stored once per sink
/// and sender, the scores reactions make, tokens.
@Suite(WithPostgres()) struct CardStoreTests {
  private func card(_ id: String, type: String = "fact", body: String = "body") -> Wire.Card {
    Wire.Card(id: id, type: type, body: body)
  }

  @Test(arguments: StoreKind.allCases) func loadingTheSameDecksAgainChangesNothing(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let types = [Wire.CardType(name: "fact", label: "Fact")]
      #expect(
        try await store.load(cards: [card("a"), card("b")], types: types) == LoadReport(added: 2))
      let loaded = try await store.revision(install: nil, feed: .recent)
      #expect(try await store.load(cards: [card("a"), card("b")], types: types) == LoadReport())
      #expect(try await store.revision(install: nil, feed: .recent) == loaded)

      let report = try await store.load(cards: [card("a", body: "new"), card("c")], types: types)
      #expect(report == LoadReport(added: 1, changed: 1, removed: 1))
      #expect(try await store.revision(install: nil, feed: .recent) > loaded)
      let since = try await store.changes(
        since: loaded, feed: .recent, bodyLimit: 4096, install: nil)
      #expect(!since.full)
      #expect(Set(since.cards.map(\.id)) == ["a", "c"])
      #expect(since.cards.first { $0.id == "a" }?.body == "new")
      #expect(since.removed == ["b"])
      #expect(since.types.isEmpty, "the types did not change")

      let all = try await store.changes(since: nil, feed: .recent, bodyLimit: 4096, install: nil)
      #expect(all.full && all.removed.isEmpty)
      #expect(Set(all.cards.map(\.id)) == ["a", "c"])
      #expect(all.types.map(\.name) == ["fact"])
      #expect(try await store.card(id: "b") == nil)
    }
  }

  @Test(arguments: StoreKind.allCases) func aBodyOverThePullsLimitIsLeftOutAndServedAlone(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let long = String(repeating: "x", count: 100)
      _ = try await store.load(cards: [card("long", body: long), card("short")], types: [])
      let pulled = try await store.changes(since: nil, feed: .recent, bodyLimit: 10, install: nil)
      let sent = try #require(pulled.cards.first { $0.id == "long" })
      #expect(sent.body == nil && sent.bodyOmitted == true)
      #expect(pulled.cards.first { $0.id == "short" }?.body == "body")
      #expect(try await store.card(id: "long")?.body == long)
    }
  }

  @Test(arguments: StoreKind.allCases) func anEventIsStoredOncePerSinkSenderAndInsertID(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      func event(_ sink: String, _ insertID: String, from sender: String) -> ReceivedEvent {
        ReceivedEvent(
          sink: sink, insertID: insertID, name: "app_opened", distinctID: sender, time: 1_000,
          payload: "{}")
      }
      try await store.record(
        events: [event("ctfo", "e1", from: "u1"), event("ctfo", "e1", from: "u1")], install: nil,
        at: 2_000)
      try await store.record(
        events: [
          event("ctfo", "e1", from: "u1"), event("ctfo", "e1", from: "u2"),
          event("mixpanel", "e1", from: "u1"),
        ], install: nil, at: 3_000)
      let ctfo = try await store.events(sink: "ctfo")
      #expect(ctfo.map(\.distinctID) == ["u1", "u2"])
      #expect(ctfo.map(\.copies) == [3, 1])
      #expect(try await store.events(sink: "mixpanel").map(\.copies) == [1])
      #expect(try await store.eventReport(sink: "ctfo") == "app_opened 2\n")
    }
  }

  /// The dashboard's aggregates, kept as events are stored: an event sent again is not counted
  /// again, hours by arrival, reactions by type and card, installs by their last event,
  /// refusals by sink.
  @Test(arguments: StoreKind.allCases) func theDashboardCountsEachEventOnceAsItArrives(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      _ = try await store.load(
        cards: [
          Wire.Card(id: "f1", type: "fact", title: "One", body: "b"), card("w1", type: "word"),
        ],
        types: [])
      let hour = DashboardData.hourMilliseconds
      let now = 500 * hour + 60_000
      func reaction(_ id: String, _ name: String, card: String, type: String) -> ReceivedEvent {
        var event = ReceivedEvent(
          sink: "ctfo", insertID: id, name: name, distinctID: "x", time: now, payload: "{}")
        event.cardID = card
        event.cardType = type
        return event
      }
      let batch = [
        reaction("a", "CTFO", card: "f1", type: "fact"),
        reaction("b", "CTFO", card: "f1", type: "fact"),
        reaction("c", "TIFB", card: "f1", type: "fact"),
        reaction("d", "TFU", card: "w1", type: "word"),
      ]
      try await store.record(events: batch, install: "i1", at: now - hour)
      // Sent again (a retry), with one new event: only the new one counts.
      try await store.record(
        events: batch + [reaction("e", "CTFO", card: "f1", type: "fact")], install: "i1", at: now)
      try await store.record(
        events: [
          ReceivedEvent(
            sink: "mixpanel", insertID: "m", name: "<b>x</b>", distinctID: "d", time: now,
            payload: "{}")
        ], install: nil, at: now)
      try await store.record(
        events: [
          reaction("z", "CTFO", card: "w1", type: "word"),
          reaction("y", "TIFB", card: "f1", type: "fact"),
          reaction("x", "CTFO", card: "f1", type: "fact"),
        ], install: "i2", at: now - 10 * DashboardData.dayMilliseconds)
      try await store.record(
        events: [reaction("v", "TIFB", card: "f1", type: "fact")], install: "i2",
        at: now - 10 * DashboardData.dayMilliseconds)
      for install in ["i3", "i4"] {
        try await store.record(
          events: [reaction("w", "CTFO", card: "f1", type: "fact")], install: install,
          at: now - 10 * DashboardData.dayMilliseconds)
      }
      try await store.countRefused(sink: "ctfo", records: 2, requests: 0)
      try await store.countRefused(sink: "ctfo", records: 1, requests: 1)
      try await store.countRefused(sink: "ga", records: 0, requests: 0)

      let data = try await store.dashboard(at: now, minReactions: 3)
      #expect(data.hours == [.init(hour: 499, events: 4), .init(hour: 500, events: 2)])
      // Each install's final reaction, once: i1's CTFO and i2's TIFB to f1, i3's and i4's CTFO.
      #expect(
        data.types == [
          .init(key: "fact", ctfo: 3, tfu: 0, tifb: 1),
          .init(key: "word", ctfo: 1, tfu: 1, tifb: 0),
        ])
      #expect(data.topCards == [.init(key: "f1", title: "One", ctfo: 3, tfu: 0, tifb: 1)])
      #expect(data.activeInstalls == [1, 1, 4])
      #expect(data.refused == [.init(sink: "ctfo", records: 3, requests: 1)])
      #expect(data.names.first == .init(sink: "ctfo", name: "CTFO", events: 7))
      #expect(data.names.contains(.init(sink: "mixpanel", name: "<b>x</b>", events: 1)))
      #expect(try await store.dashboard(at: now, minReactions: 5).topCards.isEmpty)
      // A prune 40 days on drops the hours and installs the page no longer shows, not the
      // reactions.
      _ = try await store.prune(at: now + 40 * DashboardData.dayMilliseconds, eventsBefore: nil)
      let pruned = try await store.dashboard(at: now, minReactions: 3)
      #expect(pruned.hours.isEmpty && pruned.activeInstalls == [0, 0, 0])
      #expect(pruned.types == data.types && pruned.names == data.names)
    }
  }

  /// A reaction changes no pull by itself: it queues its install, whose next cards are made
  /// off the request path (`rescorePending`), for that install only.
  @Test(arguments: StoreKind.allCases) func aReactionRescoresItsInstallsUnseenCardsOffThePull(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let scoring = try #require(store as? any ScoringStore)
      _ = try await store.load(
        cards: [
          card("h1", type: "haiku"), card("h2", type: "haiku"), card("h3", type: "haiku"),
          card("f1"),
        ], types: [])
      _ = try await store.issueToken(hash: [1], installId: "i1", expiresAt: .max)
      _ = try await store.issueToken(hash: [2], installId: "i2", expiresAt: .max)
      #expect(try await scoring.rescorePending(limit: 10, at: 1_000) == 2, "queued at auth")
      let first = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i2")
      #expect(Set(first.scores.map(\.cardId)) == ["h1", "h2", "h3", "f1"])
      let before = try await store.revision(install: "i2", feed: .hot)
      let mine = try await store.revision(install: "i1", feed: .hot)
      var reaction = ReceivedEvent(
        sink: "ctfo", insertID: "r1", name: "CTFO", distinctID: "x", time: 5_000, payload: "{}")
      reaction.cardID = "h1"
      reaction.cardType = "haiku"
      try await store.record(events: [reaction], install: "i1", at: 6_000)
      #expect(try await store.revision(install: "i1", feed: .hot) == mine, "nothing made yet")
      #expect(try await scoring.rescorePending(limit: 10, at: 6_000) == 1)
      #expect(try await scoring.rescorePending(limit: 10, at: 6_000) == 0)

      let scores = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i1")
        .scores
      #expect(Set(scores.map(\.cardId)) == ["h2", "h3", "f1"], "the unseen cards")
      // Above every score a card without one draws on the client, in [0, 1).
      #expect(scores.allSatisfy { $0.score > 1 && $0.score < 2 })
      #expect(scores.allSatisfy { $0.reason == "new: few have seen it yet" })
      #expect(try await store.revision(install: "i1", feed: .hot) > mine)
      #expect(try await store.revision(install: "i2", feed: .hot) == before)
    }
  }

  /// A reaction counts only for a served card, under the card's own type: a batch naming
  /// 2,000 made-up types (or a served card under a made-up type) scores the served types
  /// alone, so what one batch costs is bounded by the deck, not by what a client makes up.
  @Test(arguments: StoreKind.allCases) func reactionsNameOnlyTheServedTypes(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      _ = try await store.load(
        cards: [card("h1", type: "haiku"), card("h2", type: "haiku"), card("f1")], types: [])
      _ = try await store.issueToken(hash: [1], installId: "i1", expiresAt: .max)
      func reaction(_ n: Int, card: String, type: String) -> ReceivedEvent {
        var event = ReceivedEvent(
          sink: "ctfo", insertID: "r\(n)", name: "CTFO", distinctID: "x", time: 5_000,
          payload: "{}")
        event.cardID = card
        event.cardType = type
        return event
      }
      let madeUp = (0..<2_000).map { reaction($0, card: "x\($0)", type: "t\($0)") }
      let start = ContinuousClock.now
      try await store.record(
        events: madeUp + [reaction(9_999, card: "h1", type: "made-up")], install: "i1", at: 6_000)
      let took = ContinuousClock.now - start
      _ = try await (store as? any ScoringStore)?.rescorePending(limit: 10, at: 6_000)
      let scores = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i1")
        .scores
      #expect(Set(scores.map(\.cardId)) == ["h2", "f1"], "the cards the install has not seen")
      #expect(took < .seconds(5), "\(took) for 2,000 made-up types")
      let data = try await store.dashboard(at: 6_000, minReactions: 1)
      #expect(data.types.map(\.key) == ["haiku"])
      #expect(data.topCards.map(\.key) == ["h1"])
    }
  }

  /// The dashboard counts each install's final reaction to a served card once: fifty CTFO
  /// events from one install are one reaction, and events on a card the server does not serve
  /// are none.
  @Test(arguments: StoreKind.allCases) func theDashboardCountsFinalReactionsToServedCards(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      _ = try await store.load(cards: [card("a"), card("b"), card("c")], types: [])
      func reaction(_ id: String, _ name: String, card: String) -> ReceivedEvent {
        var event = ReceivedEvent(
          sink: "ctfo", insertID: id, name: name, distinctID: "x", time: 1_000, payload: "{}")
        event.cardID = card
        event.cardType = "fact"
        return event
      }
      try await store.record(
        events: (0..<50).map { reaction("s\($0)", "CTFO", card: "spoof") }
          + (0..<50).map { reaction("a\($0)", "CTFO", card: "a") }, install: "one", at: 2_000)
      for (install, name) in [("two", "TIFB"), ("three", "TIFB")] {
        try await store.record(
          events: [reaction("r", name, card: "a")], install: install, at: 2_000)
      }
      let data = try await store.dashboard(at: 2_000, minReactions: 3)
      #expect(data.topCards == [.init(key: "a", title: nil, ctfo: 1, tfu: 0, tifb: 2)])
      #expect(data.types == [.init(key: "fact", ctfo: 1, tfu: 0, tifb: 2)])
    }
  }

  @Test(arguments: StoreKind.allCases) func aTokenLivesUntilItExpiresOrTheInstallGetsAnother(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let distinct = try await store.issueToken(hash: [1, 2], installId: "i", expiresAt: 1_000)
      #expect(distinct.hasPrefix("d-"))
      #expect(try await store.install(forToken: [1, 2], at: 500) == "i")
      #expect(try await store.install(forToken: [1, 2], at: 1_000) == nil)
      #expect(try await store.install(forToken: [9], at: 500) == nil)
      #expect(try await store.issueToken(hash: [3], installId: "i", expiresAt: 5_000) == distinct)
      #expect(try await store.install(forToken: [1, 2], at: 600) == nil, "revoked by the new one")
      #expect(try await store.install(forToken: [3], at: 600) == "i")
    }
  }

  @Test(arguments: StoreKind.allCases) func pruningDropsExpiredTokensAndTheInstallsLeftWithNothing(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let gone = try await store.issueToken(hash: [1], installId: "gone", expiresAt: 1_000)
      _ = try await store.issueToken(hash: [2], installId: "kept", expiresAt: 9_000)
      let report = try await store.prune(at: 2_000, eventsBefore: nil)
      #expect([report.tokens, report.events, report.installs] == [1, 0, 1] as [Int])
      #expect(try await store.install(forToken: [2], at: 2_000) == "kept")
      // The pruned install comes back as a new one: another distinct id.
      #expect(try await store.issueToken(hash: [3], installId: "gone", expiresAt: 9_000) != gone)
    }
  }

  /// A prune of more events than one batch deletes them all, and what only they kept.
  @Test(arguments: StoreKind.allCases) func aPruneOfManyEventsDeletesThemAll(
    _ kind: StoreKind
  ) async throws {
    try await kind.withStore { store in
      let count = SQLiteCardStore.pruneBatch * 2 + 7
      let events = (0..<count).map {
        ReceivedEvent(
          sink: "ctfo", insertID: "e\($0)", name: "focus", distinctID: "d", time: 1_000,
          payload: "{}")
      }
      for part in stride(from: 0, to: count, by: 2_000) {
        try await store.record(
          events: Array(events[part..<min(count, part + 2_000)]), install: nil, at: 1_000)
      }
      let report = try await store.prune(at: 5_000, eventsBefore: 2_000)
      #expect(report.events == count)
      #expect(try await store.events(sink: "ctfo").isEmpty)
    }
  }

  /// A prune deletes old events in batches, each its own transaction: a reader on another
  /// connection sees the count fall step by step, where one transaction held every other
  /// request for the whole prune.
  @Test func aPruneDeletesInBatchesThatOthersSeeBetween() async throws {
    let folder = try TemporaryFolder("ctfo-server-store")
    let store = try SQLiteCardStore(path: folder.path("server.sqlite"))
    let total = 60_000
    try store.lane.run { db in
      try db.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(total))
        INSERT INTO events (sink, owner, insert_id, name, distinct_id, time, payload,
          received_at)
        SELECT 'ctfo', 'o', 'e' || i, 'focus', 'd', 1, '{}', 1 FROM n
        """)
    }
    let reader = try SQLiteCardStore(path: folder.path("server.sqlite"))
    let seen = Mutex<[Int]>([])
    let done = Mutex(false)
    let first = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      defer { finished.signal() }
      while !done.withLock({ $0 }) {
        let count =
          (try? reader.lane.run { db in
            try db.rows("SELECT COUNT(*) FROM events") { Int($0.integer(0)) }.first ?? 0
          }) ?? -1
        let isFirst = seen.withLock { seen in
          if seen.last != count { seen.append(count) }
          return seen.count == 1
        }
        if isFirst { first.signal() }
      }
    }
    first.wait()
    let report = try store.prune(at: 10, eventsBefore: 5)
    done.withLock { $0 = true }
    finished.wait()
    #expect(report.events == total)
    let counts = seen.withLock { $0 }
    #expect(counts.first == total)
    #expect(counts.count > 3, "the counts a reader saw: \(counts)")
  }

  @Test(arguments: StoreKind.allCases)
  func aStatusAndANotificationReachThePullsTheyAreFor(_ kind: StoreKind) async throws {
    try await kind.withStore { store in
      _ = try await store.issueToken(hash: [1], installId: "i1", expiresAt: .max)
      _ = try await store.issueToken(hash: [2], installId: "i2", expiresAt: .max)
      #expect(try await store.setStatus(install: "nobody", to: "banned") == false)
      let before = try await store.revision(install: "i2", feed: .hot)
      #expect(try await store.setStatus(install: "i1", to: "banned"))
      #expect(try await store.revision(install: "i2", feed: .hot) == before)
      let i1 = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i1")
      #expect(i1.userStatus == "banned")
      let i2 = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i2")
      #expect(i2.userStatus == nil)

      try await store.notify(id: "n1", text: "hello", at: 1_000)
      try await store.notify(id: "n2", text: "again", at: 2_000)
      #expect(try await store.revision(install: "i2", feed: .hot) > before)
      let pulled = try await store.changes(
        since: before, feed: .recent, bodyLimit: 4096, install: "i2")
      #expect(pulled.notifications.map(\.id) == ["n2", "n1"])
      #expect(pulled.notifications.first?.text == "again")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func theOperatorsScoresOrderTheHotFeed(_ kind: StoreKind) async throws {
    try await kind.withStore { store in
      _ = try await store.load(cards: [card("a"), card("b"), card("c")], types: [])
      #expect(try await store.score(cardId: "nope", score: 1, at: 10) == false)
      let before = try await store.revision(install: nil, feed: .hot)
      #expect(try await store.score(cardId: "b", score: 2, at: 10))
      #expect(try await store.score(cardId: "c", score: 1, at: 10))
      let all = try await store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: nil)
      #expect(all.cards.map(\.id) == ["b", "c", "a"])
      let since = try await store.changes(since: before, feed: .hot, bodyLimit: 4096, install: nil)
      #expect(since.cards.isEmpty)
      #expect(since.scores.map(\.cardId) == ["b", "c"])
      #expect(since.scores.map(\.score) == [2, 1])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func twoServersOnOneStoreActAsOne(_ kind: StoreKind) async throws {
    try await kind.withStores(2) { stores in
      let (one, two) = (stores[0], stores[1])
      _ = try await one.load(cards: [card("a")], types: [])
      let distinct = try await one.issueToken(hash: [7], installId: "i", expiresAt: .max)
      #expect(try await two.install(forToken: [7], at: 100) == "i", "a token from the other")
      #expect(try await two.issueToken(hash: [8], installId: "i", expiresAt: .max) == distinct)
      #expect(try await one.install(forToken: [8], at: 100) == "i")
      #expect(try await one.epoch() == two.epoch())

      let event = ReceivedEvent(
        sink: "ctfo", insertID: "e1", name: "app_opened", distinctID: "x", time: 1,
        payload: "{}")
      try await one.record(events: [event], install: "i", at: 10)
      try await two.record(events: [event], install: "i", at: 11)
      #expect(try await one.events(sink: "ctfo").map(\.copies) == [2], "stored once")

      let before = try await two.revision(install: "i", feed: .hot)
      #expect(try await one.score(cardId: "a", score: 5, at: 20))
      #expect(try await two.revision(install: "i", feed: .hot) > before)
      let pulled = try await two.changes(since: before, feed: .hot, bodyLimit: 4096, install: "i")
      #expect(pulled.scores.map(\.cardId) == ["a"])
    }
  }

  /// What a pull answered at once reads (`revisionAtOnce`, `ownChangesAtOnce`) is this
  /// process's change at once, and another process's as soon as the store is asked again; an
  /// install's own part is never served beside another revision than the one it was read for.
  @Test(arguments: StoreKind.allCases)
  func aPullAnsweredAtOnceSeesTheChangesOfEveryProcess(_ kind: StoreKind) async throws {
    try await kind.withStores(2) { stores in
      let (one, two) = (stores[0], stores[1])
      _ = try await one.load(cards: [card("a"), card("b")], types: [])
      _ = try await one.issueToken(hash: [1], installId: "i", expiresAt: .max)
      let first = try await one.revision(install: "i", feed: .hot)
      #expect(one.revisionAtOnce(install: "i", feed: .hot) == first, "the revision just read")

      #expect(try await one.score(cardId: "a", score: 2, at: 10))
      // This process's change, at once: the revision read before it is forgotten, and read
      // again (SQLite) or left for the pull to ask the store for (PostgreSQL: nil).
      let atOnce = one.revisionAtOnce(install: "i", feed: .hot)
      let scored = try await one.revision(install: "i", feed: .hot)
      #expect(scored > first)
      #expect(atOnce == (kind == .sqlite ? scored : nil))

      #expect(try await two.setStatus(install: "i", to: "banned"))
      let banned = try await one.revision(install: "i", feed: .hot)
      #expect(banned > scored, "the other's change, when the store is asked")
      #expect(one.revisionAtOnce(install: "i", feed: .hot) == banned)

      // Only a store that answers full pulls at once has an own part at once (PostgreSQL's
      // full pulls wait for the store, in the router).
      if let own = one.ownChangesAtOnce(install: "i", feed: .hot, revision: scored) {
        #expect(own.userStatus == "banned", "read now, though kept for the older revision")
        #expect(
          one.ownChangesAtOnce(install: "i", feed: .hot, revision: scored)?.userStatus
            == "banned")
        #expect(try await two.setStatus(install: "i", to: "active"))
        let active = try await one.revision(install: "i", feed: .hot)
        #expect(
          one.ownChangesAtOnce(install: "i", feed: .hot, revision: active)?.userStatus
            == "active", "another revision: read again, not the part kept")
      } else {
        #expect(kind == .postgres)
      }
    }
  }

  @Test func anInstallsRateIsCountedAcrossTheProcessesOfOneStore() async throws {
    try await StoreKind.postgres.withStores(2) { stores in
      let time = Mutex<Int64>(1_800_000_000_000 + 5_000)
      let clock: @Sendable () -> Int64 = { time.withLock { $0 } }
      let (one, two) = (
        SharedRates(perMinute: 10, clock: clock, store: stores[0]),
        SharedRates(perMinute: 10, clock: clock, store: stores[1])
      )
      for _ in 0..<6 { #expect(one.admit("i") == nil) }
      await one.settle()
      for _ in 0..<4 { #expect(two.admit("i") == nil) }
      await two.settle()
      #expect(two.admit("i") == 55, "ten in the minute between the two: the rest of it to wait")
      #expect(one.admit("i") == nil, "the first has not heard of the second's four: the bound")
      time.withLock { $0 += 1_000 }
      #expect(one.admit("i") == nil, "a second later: the twelfth, sending what it counted")
      await one.settle()
      #expect(one.admit("i") != nil, "and now it knows")
      #expect(two.admit("other") == nil, "another install has its own count")
      time.withLock { $0 += 60_000 }
      #expect(two.admit("i") == nil, "the next minute starts again")
    }
  }

  @Test func aPostgreSQLThatCannotBeUsedIsSaidAtOnceAndWhy() async throws {
    let server = try StoreKind.postgres()
    let cases = [
      // Nothing listens on port 1 of the loopback.
      ("postgres://ctfo@127.0.0.1:1/db", "Connection refused"),
      (server.url("nosuch"), #"database "nosuch" does not exist"#),
      (server.url("x").replacingOccurrences(of: "ctfo@", with: "nobody@"), #"role "nobody""#),
    ]
    for (url, reason) in cases {
      do {
        _ = try await PostgresCardStore.open(url: url)
        Issue.record("\(url) opened")
      } catch let error as CardStoreError {
        #expect(error.exitCode == 69)
        #expect(error.description.hasPrefix("cannot use postgres://"), "\(error)")
        #expect(error.description.contains(reason), "\(error)")
        #expect(!error.description.contains("PSQLError"), "\(error)")
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aStoreANewerServerMigratedIsRefused(_ kind: StoreKind) async throws {
    let error = try await kind.reopeningANewerStore()
    guard case .newerSchema(_, let version, let known)? = error as? CardStoreError else {
      Issue.record("expected newerSchema, got \(String(describing: error))")
      return
    }
    #expect(version == known + 1)
  }
}
