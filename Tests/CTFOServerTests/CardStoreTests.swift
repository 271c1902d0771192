import CTFOServer
import CTFOWire
import TestSupport
import Testing

/// The server's store on its own, without the client or HTTP: decks loaded by revision, pulls
/// of what changed, events stored once per sink and sender, the scores reactions make, tokens.
@Suite struct SQLiteCardStoreTests {
  let folder: TemporaryFolder
  let store: SQLiteCardStore

  init() throws {
    folder = try TemporaryFolder("ctfo-server-store")
    store = try SQLiteCardStore(path: folder.path("server.sqlite"))
  }

  private func card(_ id: String, type: String = "fact", body: String = "body") -> Wire.Card {
    Wire.Card(id: id, type: type, body: body)
  }

  @Test func loadingTheSameDecksAgainChangesNothing() throws {
    let types = [Wire.CardType(name: "fact", label: "Fact")]
    #expect(try store.load(cards: [card("a"), card("b")], types: types) == LoadReport(added: 2))
    let loaded = try store.revision(install: nil, feed: .recent)
    #expect(try store.load(cards: [card("a"), card("b")], types: types) == LoadReport())
    #expect(try store.revision(install: nil, feed: .recent) == loaded)

    let report = try store.load(cards: [card("a", body: "new"), card("c")], types: types)
    #expect(report == LoadReport(added: 1, changed: 1, removed: 1))
    #expect(try store.revision(install: nil, feed: .recent) > loaded)
    let since = try store.changes(since: loaded, feed: .recent, bodyLimit: 4096, install: nil)
    #expect(!since.full)
    #expect(Set(since.cards.map(\.id)) == ["a", "c"])
    #expect(since.cards.first { $0.id == "a" }?.body == "new")
    #expect(since.removed == ["b"])
    #expect(since.types.isEmpty, "the types did not change")

    let all = try store.changes(since: nil, feed: .recent, bodyLimit: 4096, install: nil)
    #expect(all.full && all.removed.isEmpty)
    #expect(Set(all.cards.map(\.id)) == ["a", "c"])
    #expect(all.types.map(\.name) == ["fact"])
    #expect(try store.card(id: "b") == nil)
  }

  @Test func aBodyOverThePullsLimitIsLeftOutAndServedAlone() throws {
    let long = String(repeating: "x", count: 100)
    _ = try store.load(cards: [card("long", body: long), card("short")], types: [])
    let pulled = try store.changes(since: nil, feed: .recent, bodyLimit: 10, install: nil)
    let sent = try #require(pulled.cards.first { $0.id == "long" })
    #expect(sent.body == nil && sent.bodyOmitted == true)
    #expect(pulled.cards.first { $0.id == "short" }?.body == "body")
    #expect(try store.card(id: "long")?.body == long)
  }

  @Test func anEventIsStoredOncePerSinkSenderAndInsertID() throws {
    func event(_ sink: String, _ insertID: String, from sender: String) -> ReceivedEvent {
      ReceivedEvent(
        sink: sink, insertID: insertID, name: "app_opened", distinctID: sender, time: 1_000,
        payload: "{}")
    }
    try store.record(
      events: [event("ctfo", "e1", from: "u1"), event("ctfo", "e1", from: "u1")], install: nil,
      at: 2_000)
    try store.record(
      events: [
        event("ctfo", "e1", from: "u1"), event("ctfo", "e1", from: "u2"),
        event("mixpanel", "e1", from: "u1"),
      ], install: nil, at: 3_000)
    let ctfo = try store.events(sink: "ctfo")
    #expect(ctfo.map(\.distinctID) == ["u1", "u2"])
    #expect(ctfo.map(\.copies) == [3, 1])
    #expect(try store.events(sink: "mixpanel").map(\.copies) == [1])
    #expect(try store.eventReport(sink: "ctfo") == "app_opened 2\n")
  }

  @Test func aReactionScoresTheUnseenCardsOfItsTypeForItsInstallOnly() throws {
    _ = try store.load(
      cards: [
        card("h1", type: "haiku"), card("h2", type: "haiku"), card("h3", type: "haiku"),
        card("f1"),
      ], types: [])
    _ = try store.issueToken(hash: [1], installId: "i1", expiresAt: .max)
    _ = try store.issueToken(hash: [2], installId: "i2", expiresAt: .max)
    let before = try store.revision(install: "i2", feed: .hot)
    var reaction = ReceivedEvent(
      sink: "ctfo", insertID: "r1", name: "CTFO", distinctID: "x", time: 5_000, payload: "{}")
    reaction.cardID = "h1"
    reaction.cardType = "haiku"
    try store.record(events: [reaction], install: "i1", at: 6_000)

    let scores = try store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i1").scores
    #expect(scores.map(\.cardId) == ["h2", "h3"])
    // One CTFO with the prior of one CTFO and one TIFB: (1 + 1) / (1 + 2).
    #expect(scores.allSatisfy { abs($0.score - 2.0 / 3) < 1e-9 })
    #expect(scores.first?.reason == "you often CTFO haiku")
    #expect(try store.revision(install: "i1", feed: .hot) > before)
    #expect(try store.revision(install: "i2", feed: .hot) == before)
    #expect(
      try store.changes(since: nil, feed: .hot, bodyLimit: 4096, install: "i2").scores.isEmpty)
  }

  @Test func aTokenLivesUntilItExpiresOrTheInstallGetsAnother() throws {
    let distinct = try store.issueToken(hash: [1, 2], installId: "i", expiresAt: 1_000)
    #expect(distinct.hasPrefix("d-"))
    #expect(try store.install(forToken: [1, 2], at: 500) == "i")
    #expect(try store.install(forToken: [1, 2], at: 1_000) == nil)
    #expect(try store.install(forToken: [9], at: 500) == nil)
    #expect(try store.issueToken(hash: [3], installId: "i", expiresAt: 5_000) == distinct)
    #expect(try store.install(forToken: [1, 2], at: 600) == nil, "revoked by the new one")
    #expect(try store.install(forToken: [3], at: 600) == "i")
  }

  @Test func pruningDropsExpiredTokensAndTheInstallsLeftWithNothing() throws {
    let gone = try store.issueToken(hash: [1], installId: "gone", expiresAt: 1_000)
    _ = try store.issueToken(hash: [2], installId: "kept", expiresAt: 9_000)
    let report = try store.prune(at: 2_000, eventsBefore: nil)
    #expect([report.tokens, report.events, report.installs] == [1, 0, 1])
    #expect(try store.install(forToken: [2], at: 2_000) == "kept")
    // The pruned install comes back as a new one: another distinct id.
    #expect(try store.issueToken(hash: [3], installId: "gone", expiresAt: 9_000) != gone)
  }
}
