import HeapModule

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The unseen cards of one type, each with a score; the best is promoted next (ctfo.md,
/// "Personalization").
///
/// Cards are ordinals `0..<count`. A card with a server score sits in a max-heap with lazy
/// deletion. Cards without one draw a random score, which makes the plain random choice of
/// feed-logic.md the special case of a pool without server scores. Those random scores are
/// never stored: the highest of `m` uniform scores below `s` is `s · U^(1/m)`, so they are
/// generated in descending order as cards are promoted, and which card holds each one is a
/// uniformly random undrawn card (`LazyShuffle`). A pool of a million unscored cards thus
/// costs nothing until cards are drawn, and promotion and score updates are O(log n).
public struct ScoredPool: Sendable {
  /// A server score and the time the server stated it.
  public struct Score: Sendable, Hashable {
    public var value: Double
    public var timestamp: Double
    public init(value: Double, timestamp: Double) {
      self.value = value
      self.timestamp = timestamp
    }

    /// Whether `other` replaces this score: stated later, or at the same time with a higher
    /// value.
    public func isEarlier(than other: Score) -> Bool {
      (timestamp, value) < (other.timestamp, other.value)
    }
  }

  private struct Entry: Comparable, Sendable {
    var score: Double
    /// Breaks equal scores: a random draw per card and round, so equal scores come in a
    /// random order, never in the deck's.
    var tie: UInt64
    var ordinal: Int32
    var version: UInt32
    static func < (a: Entry, b: Entry) -> Bool {
      (a.score, a.tie, a.version) < (b.score, b.tie, b.version)
    }
  }

  /// The ordinals of the type: `0..<count`, the removed ones included.
  public private(set) var count: Int
  private var unscored: LazyShuffle
  private var heap = Heap<Entry>()
  /// The latest server score of every card that has one.
  private var scores: [Int32: Score] = [:]
  /// Unseen scored cards -> the version of their live heap entry.
  private var unseenScored: [Int32: UInt32] = [:]
  private var versions: UInt32 = 0
  /// Cards whose preparation failed: never offered again this session.
  private(set) var failed: Set<Int32> = []
  /// Cards their source removed: never offered again, until `revive` gives the
  /// ordinal to a new card.
  private(set) var removed: Set<Int32> = []
  /// The random score of the last unscored card promoted; the next one is below it.
  private var randomCeiling = 1.0
  /// How many times the pool started over (or was restarted): equal scores are broken in a
  /// new order each time.
  public private(set) var cycle = 0
  /// Seeds the order of equal scores (`Entry.tie`).
  private let salt: UInt64
  /// The card promoted last: a new round does not begin with it while it has another card, so
  /// a card is not shown twice in a row at a round's turn.
  private var lastPromoted: Int32?

  /// `salt` seeds the order in which equal server scores are promoted.
  public init(count: Int, salt: UInt64 = 0) {
    self.count = count
    self.salt = salt
    unscored = LazyShuffle(count: count)
  }

  /// Unseen cards left before the pool returns its seen cards.
  public var unseenCount: Int { unscored.remaining + unseenScored.count }

  /// Cards that can still be shown this session (all but the failed and removed ones).
  public var availableCount: Int { count - failed.count - removed.count }

  /// The cards the source holds now (all but the removed ones).
  public var liveCount: Int { count - removed.count }

  /// True when the card has not been promoted in the current cycle.
  public func isUnseen(_ ordinal: Int) -> Bool {
    let o = Int32(ordinal)
    return unseenScored[o] != nil || (scores[o] == nil && unscored.contains(o))
  }

  /// Takes the unseen card with the best score; nil only when no card is available at all.
  ///
  /// When every card was seen, all cards but the failed ones return first: a new round, in a
  /// fresh random order, whatever is still queued from the last (`queued`, in the order dealt):
  /// passing over the cards still queued made a type smaller than the queue repeat its order.
  /// Only the card dealt last (or promoted last) is passed over while another can come, so a
  /// round does not begin with the card that ended the one before.
  public mutating func promote(
    avoiding queued: [Int] = [], using rng: inout some RandomNumberGenerator
  ) -> Int? {
    if unseenCount == 0 { startOver() }
    let recent = Set([queued.last, lastPromoted.map(Int.init)].compactMap { $0 }).filter(isUnseen)
    let held = unseenCount > recent.count ? recent.sorted() : []
    for ordinal in held { takeOut(Int32(ordinal)) }
    defer { for ordinal in held { putBack(ordinal) } }
    let promoted = promoteBest(using: &rng)
    lastPromoted = promoted.map(Int32.init)
    return promoted
  }

  /// Applies a server score. Kept only if the card is unseen and the score is later than the
  /// one held: a newer timestamp, or the same timestamp and a higher value (a last-writer-wins
  /// register whose ties do not depend on the order scores arrive in). Returns true when it
  /// was kept.
  @discardableResult
  public mutating func update(_ ordinal: Int, to score: Score) -> Bool {
    let o = Int32(ordinal)
    guard ordinal >= 0, ordinal < count, !failed.contains(o), !removed.contains(o) else {
      return false
    }
    if let held = scores[o], !held.isEarlier(than: score) { return false }
    let unseen: Bool
    if unseenScored[o] != nil {
      unseen = true
    } else if scores[o] == nil {
      unseen = unscored.remove(o)
    } else {
      unseen = false
    }
    guard unseen else { return false }
    scores[o] = score
    push(o, score.value)
    return true
  }

  /// Takes an unseen card out of the round, as if promoted and shown: a card an earlier run
  /// showed (`RoundProgress`). It comes back when the pool starts over.
  public mutating func markSeen(_ ordinal: Int) {
    let o = Int32(ordinal)
    guard ordinal >= 0, ordinal < count, !removed.contains(o) else { return }
    takeOut(o)
  }

  /// Marks a promoted card as failed: it is never offered again this session.
  public mutating func markFailed(_ ordinal: Int) {
    let o = Int32(ordinal)
    failed.insert(o)
    if unseenScored.removeValue(forKey: o) == nil { unscored.remove(o) }
  }

  /// A new card: the next ordinal, unseen. Returns it.
  public mutating func append() -> Int {
    unscored.grow(from: count, to: count + 1)
    count += 1
    return count - 1
  }

  /// The source removed the card: it is never offered again (whether unseen, seen or queued;
  /// the feed takes it out of its queues).
  public mutating func remove(_ ordinal: Int) {
    let o = Int32(ordinal)
    guard ordinal >= 0, ordinal < count, !removed.contains(o) else { return }
    takeOut(o)
    failed.remove(o)
    scores[o] = nil
    removed.insert(o)
  }

  /// Gives a removed card's ordinal to a new card, unseen and unscored, so that a source that
  /// adds and removes cards forever keeps the pool at its size. Returns false when the
  /// ordinal was not removed.
  @discardableResult
  public mutating func revive(_ ordinal: Int) -> Bool {
    let o = Int32(ordinal)
    guard removed.remove(o) != nil else { return false }
    unscored.putBack(o)
    return true
  }

  /// Starts the round again from what was shown: every card but the failed ones and `shown`
  /// is unseen, in a new random order. The feed calls it when a type's cards leave its queues
  /// unshown, so that the round goes on from the cards the user saw, whatever was dealt ahead.
  /// `last` is the card shown last (a new round does not begin with it).
  public mutating func restart(shown: Set<Int>, last: Int?) {
    startOver(shown: shown)
    lastPromoted = last.map(Int32.init)
  }

  /// Forgets the failures: every card but the removed ones can come again, in a new round
  /// (a type whose every card failed, after its source came back).
  public mutating func forgetFailures() {
    failed = []
    startOver()
  }

  /// Returns a promoted card that was never shown (its slot left the queue) to the unseen.
  public mutating func putBack(_ ordinal: Int) {
    let o = Int32(ordinal)
    guard !failed.contains(o), !removed.contains(o), !isUnseen(ordinal) else { return }
    if let score = scores[o] { push(o, score.value) } else { unscored.putBack(o) }
  }

  /// Takes the unseen card with the best score, random or from the server.
  private mutating func promoteBest(using rng: inout some RandomNumberGenerator) -> Int? {
    let randomScore = nextRandomScore(using: &rng)
    if let top = topScored(), top.score >= randomScore ?? -.infinity {
      heap.removeMax()
      unseenScored[top.ordinal] = nil
      return Int(top.ordinal)
    }
    guard let ordinal = unscored.draw(using: &rng) else { return nil }
    randomCeiling = randomScore ?? randomCeiling
    return Int(ordinal)
  }

  private mutating func push(_ o: Int32, _ value: Double) {
    versions &+= 1
    unseenScored[o] = versions
    heap.insert(Entry(score: value, tie: tie(o), ordinal: o, version: versions))
  }

  /// A random rank for the card in this round: SplitMix64 of the salt, the card and the cycle.
  private func tie(_ o: Int32) -> UInt64 {
    var mix = SplitMix64(
      state: salt ^ UInt64(UInt32(bitPattern: o)) << 20 ^ UInt64(truncatingIfNeeded: cycle) << 52)
    return mix.next()
  }

  /// The best live heap entry, dropping stale ones.
  private mutating func topScored() -> Entry? {
    while let top = heap.max {
      if unseenScored[top.ordinal] == top.version { return top }
      heap.removeMax()
    }
    return nil
  }

  /// The score the next unscored card would draw: the maximum of the remaining random scores.
  private func nextRandomScore(using rng: inout some RandomNumberGenerator) -> Double? {
    let m = unscored.remaining
    guard m > 0 else { return nil }
    let u = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &rng)
    return randomCeiling * pow(u, 1 / Double(m))
  }

  /// Returns every card but the failed ones and `shown` to the pool. Sets and dictionaries are
  /// walked in sorted order: their own order changes from process to process (Swift seeds
  /// hashing per process), and the order of removals shapes the shuffle, so `ctfo next --seed`
  /// would otherwise deal differently after a pool starts over.
  private mutating func startOver(shown: Set<Int> = []) {
    cycle += 1
    unscored = LazyShuffle(count: count)
    heap = Heap()
    unseenScored = [:]
    randomCeiling = 1
    let out = failed.union(removed).union(shown.lazy.compactMap { Int32(exactly: $0) })
    for o in out.sorted() { unscored.remove(o) }
    for o in scores.keys.sorted() where !out.contains(o) {
      unscored.remove(o)
      push(o, scores[o]!.value)
    }
  }

  private mutating func takeOut(_ o: Int32) {
    if unseenScored.removeValue(forKey: o) == nil { unscored.remove(o) }
  }
}

/// A server score for one card of a type's pool: what the feed starts from at launch.
public struct PoolScore: Sendable, Hashable {
  public var type: String
  public var ordinal: Int
  public var score: ScoredPool.Score
  /// The card's id: a card the running feed holds under another ordinal (a live source's)
  /// is found by it.
  public var id: String?

  public init(type: String, ordinal: Int, score: ScoredPool.Score, id: String? = nil) {
    self.type = type
    self.ordinal = ordinal
    self.score = score
    self.id = id
  }
}
