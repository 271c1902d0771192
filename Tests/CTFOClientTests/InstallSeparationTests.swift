import CTFOServer
import CTFOWire
import FeedCore
import Foundation
import HTTP
import Testing

/// What one install sends or receives never touches another's:
/// its events are its own, whatever ids and names they carry, and another install's swipes
/// leave its cache key alone.
@Suite(.timeLimit(.minutes(1)))
struct InstallSeparationTests {
  @Test func anInsertIdAnotherInstallUsedIsStoredForEachUnderItsOwnDistinctId() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let a = try await RawInstall("install-a", on: server)
    let b = try await RawInstall("install-b", on: server)
    #expect(try await a.post([("TFU", "same-id", "c1")], claiming: b.distinctId).status == 200)
    #expect(try await b.post([("TFU", "same-id", "c1")], claiming: a.distinctId).status == 200)
    // A retry of A's stays one event with two copies.
    #expect(try await a.post([("TFU", "same-id", "c1")]).status == 200)
    let stored = try server.store.events(sink: "ctfo")
    #expect(stored.map(\.distinctID) == [a.distinctId, b.distinctId])
    #expect(stored.map(\.copies) == [2, 1])
  }

  @Test func anotherInstallsSwipesLeaveAClientsCacheKeyAlone() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let a = try await RawInstall("install-a", on: server)
    let b = try await RawInstall("install-b", on: server)
    // The server makes an install's scores off the pull (its background task): here, at once.
    let rescore = { _ = try server.store.rescorePending(limit: 10, at: 1_000) }
    try rescore()
    let first = try await a.pull()
    let etag = try #require(first.header("ETag"))
    let bFirst = try #require(try await b.pull().header("ETag"))
    for i in 1...3 {
      #expect(try await b.post([("CTFO", "b-\(i)", "c\(i)")]).status == 200)
      try rescore()
      #expect(try await a.pull(holding: etag).status == 304, "after B's swipe \(i)")
    }
    // B receives its own scores.
    let bPull = try await b.pull(holding: bFirst)
    #expect(bPull.status == 200)
    #expect(try Self.pull(bPull).scores.contains { $0.reason != nil })
    #expect(try await a.pull(holding: etag, feed: .recent).status == 200, "another feed's key")
    // A's own swipe changes what A receives: its scores.
    #expect(try await a.post([("CTFO", "a-1", "c1")]).status == 200)
    try rescore()
    let mine = try await a.pull(holding: etag)
    #expect(mine.status == 200)
    #expect(try Self.pull(mine).scores.contains { $0.reason != nil })
    let after = try #require(mine.header("ETag"))
    #expect(try await a.pull(holding: after).status == 304)
    // An operator's score reaches everyone.
    #expect(try server.store.score(cardId: "c2", score: 3, at: 100))
    let scored = try await a.pull(holding: after)
    #expect(scored.status == 200)
    #expect(try Self.pull(scored).scores.map(\.cardId) == ["c2"])
  }

  static func pull(_ answer: HTTPResponse) throws -> Wire.Pull {
    try JSONDecoder().decode(Wire.Pull.self, from: Data(answer.body))
  }
}
