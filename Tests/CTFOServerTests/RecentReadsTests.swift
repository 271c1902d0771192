import CTFOWire
import Synchronization
import Testing

@testable import CTFOServer

/// What a store keeps of its reads for the pulls answered at once (`RecentReads`,
/// `KnownTokens`): a second, no longer, and never across this process's own change.
@Suite struct RecentReadsTests {
  /// A clock moved by hand.
  final class Hands: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func move(_ duration: Duration) { instant.withLock { $0 += duration } }
  }

  @Test func aValueIsKeptForASecondAfterItWasRead() {
    let hands = Hands()
    let reads = RecentReads<String, Int>(capacity: 10, now: { hands.now })
    reads.remember(7, for: "a", readAt: reads.generation)
    #expect(reads.value(for: "a") == 7)
    #expect(reads.value(for: "b") == nil)
    hands.move(.milliseconds(999))
    #expect(reads.value(for: "a") == 7)
    hands.move(.milliseconds(1))
    #expect(reads.value(for: "a") == nil, "a second after its read, the store is asked again")
  }

  @Test func aReadBegunBeforeThisProcessChangedTheStoreIsNotKept() {
    let reads = RecentReads<String, Int>(capacity: 10)
    reads.remember(1, for: "a", readAt: reads.generation)
    let begun = reads.generation
    reads.forget()
    #expect(reads.value(for: "a") == nil, "the change forgets what was read")
    reads.remember(1, for: "a", readAt: begun)
    #expect(reads.value(for: "a") == nil, "a read from before the change would bring it back")
    reads.remember(2, for: "a", readAt: reads.generation)
    #expect(reads.value(for: "a") == 2)
  }

  @Test func anOlderRevisionDoesNotReplaceANewerOneReadInTheSameSecond() {
    let hands = Hands()
    let reads = RecentReads<String, Int64>(capacity: 10, isNewer: { $0 > $1 }, now: { hands.now })
    reads.remember(5, for: "a", readAt: reads.generation)
    reads.remember(4, for: "a", readAt: reads.generation)
    #expect(reads.value(for: "a") == 5)
    reads.remember(6, for: "a", readAt: reads.generation)
    #expect(reads.value(for: "a") == 6)
    hands.move(.seconds(1))
    reads.remember(4, for: "a", readAt: reads.generation)
    #expect(reads.value(for: "a") == 4, "after a second the store's answer is taken as it is")
  }

  @Test func aFullMemoryStartsAgain() {
    let reads = RecentReads<Int, Int>(capacity: 3)
    for key in 0..<3 { reads.remember(key, for: key, readAt: reads.generation) }
    #expect((0..<3).allSatisfy { reads.value(for: $0) == $0 })
    reads.remember(3, for: 3, readAt: reads.generation)
    #expect(reads.value(for: 0) == nil)
    #expect(reads.value(for: 3) == 3)
  }

  @Test func aTokenIsTakenForASecondUntilItExpiresOrIsRevokedHere() {
    let tokens = KnownTokens()
    tokens.remember("h", install: "i", expiresAt: 5_000, checkedAt: 1_000)
    #expect(tokens.install("h", at: 1_999) == "i")
    #expect(tokens.install("h", at: 2_000) == nil, "checked a second ago")
    #expect(tokens.install("h", at: 999) == nil, "a clock that went back asks the store")
    tokens.remember("h", install: "i", expiresAt: 5_000, checkedAt: 4_500)
    #expect(tokens.install("h", at: 5_000) == nil, "expired")
    tokens.remember("h", install: "i", expiresAt: 9_000, checkedAt: 6_000)
    tokens.forget(["h"])
    #expect(tokens.install("h", at: 6_000) == nil, "revoked by this process")
  }
}
