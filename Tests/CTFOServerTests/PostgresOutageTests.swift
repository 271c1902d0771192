import CTFOWire
import Foundation
import TestFixtures
import Testing

@testable import CTFOServer

/// A PostgreSQL that stops under a running server: each call fails within its deadline
/// rather than waiting on the pool, and the store answers again within a couple of seconds
/// of the database's return. A suite of its own: it stops its PostgreSQL.
@Suite(WithPostgres(), .timeLimit(.minutes(2))) struct PostgresOutageTests {
  @Test func anOutageFailsWithinTheDeadlineAndTheStoreReconnectsAtOnce() async throws {
    let server = try StoreKind.postgres()
    let base = try await PostgresCardStore.open(url: try server.newDatabase())
    let store = base.guarded(deadline: .seconds(2))
    _ = try await store.load(cards: [Wire.Card(id: "a", type: "fact", body: "b")], types: [])
    _ = try await store.revision(install: nil, feed: .hot)
    try server.pause()
    // Several calls through the outage: each fails, none waits past its deadline by much.
    for _ in 0..<6 {
      let start = ContinuousClock.now
      await #expect(throws: (any Error).self) {
        _ = try await store.revision(install: "i", feed: .hot)
      }
      let took = ContinuousClock.now - start
      #expect(took < .seconds(4), "\(took) for a call while the database is down")
    }
    try server.resume()
    let back = ContinuousClock.now
    var answered = false
    while ContinuousClock.now - back < .seconds(20), !answered {
      answered = (try? await store.revision(install: "i", feed: .hot)) != nil
    }
    let took = ContinuousClock.now - back
    #expect(answered)
    #expect(took < .seconds(3), "\(took) to answer again once the database is back")
    await base.close()
  }
}
