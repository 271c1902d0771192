import FeedCore
import Store
import Testing

/// What a sink is given: batches capped in bytes of the JSON array it is sent as, and a cursor
/// that only moves forward.
@Suite struct OutboxTests {
  private let context = Outbox.Context(app: "test", locale: "C")

  /// An outbox holding `count` events whose text has more bytes than characters.
  private func outbox(_ home: TestHome, count: Int) throws -> Outbox {
    let outbox = Outbox(database: home.database)
    let events = (0..<count).map {
      AnalyticsEvent("Focus", ["card": .string(String(repeating: "é😂", count: 3 + $0))])
    }
    try outbox.record(events, at: 1_700_000_000, context: context)
    return outbox
  }

  /// The sequence numbers of the batch the sink "ctfo" is given.
  private func batch(_ outbox: Outbox, limit: Int = 100, bytes: Int = 1 << 30) throws -> [Int64] {
    try outbox.batch(for: "ctfo", limit: limit, bytes: bytes).map(\.sequence)
  }

  /// The bytes of `rows` sent as a JSON array (`[a,b]`).
  private func arrayBytes(_ rows: some Collection<Outbox.Row>) -> Int {
    ("[" + rows.map(\.payload).joined(separator: ",") + "]").utf8.count
  }

  /// Exactly k events fit in their array's bytes, and one byte less holds k − 1: the cap counts
  /// UTF-8 bytes, not characters, and a first event larger than the cap comes alone.
  @Test func theByteCapHoldsExactlyTheEventsWhoseArrayFits() throws {
    let home = try TestHome()
    let outbox = try outbox(home, count: 6)
    let all = try outbox.all()
    let sequences = all.map(\.sequence)
    #expect(all.count == 7, "an Identify, then the events")
    #expect(
      all.dropFirst().allSatisfy { $0.payload.utf8.count >= $0.payload.count + 12 },
      "multi-byte text")
    for k in 1...all.count {
      let bytes = arrayBytes(all.prefix(k))
      #expect(try batch(outbox, bytes: bytes) == Array(sequences.prefix(k)), "\(bytes) bytes")
      #expect(
        try batch(outbox, bytes: bytes - 1) == Array(sequences.prefix(max(k - 1, 1))),
        "\(bytes - 1) bytes")
    }
    #expect(try batch(outbox, bytes: 1) == [sequences[0]], "larger than the cap: alone")
    #expect(try batch(outbox, limit: 3) == Array(sequences.prefix(3)))
    #expect(try outbox.batch(for: "ctfo", limit: 100, bytes: 1 << 30) == all)
  }

  /// A late acknowledgement of an older batch (two processes flushing one home) leaves the
  /// cursor where the newer one put it: nothing is queued, and so sent, again.
  @Test func aLateAcknowledgementOfAnOlderBatchNeverMovesTheCursorBack() throws {
    let home = try TestHome()
    let outbox = try outbox(home, count: 6)
    let all = try outbox.all()
    let older = try outbox.batch(for: "ctfo", limit: 2, bytes: 1 << 30)
    let newer = try outbox.batch(for: "ctfo", limit: 5, bytes: 1 << 30)
    try outbox.delivered(newer, to: "ctfo", at: 1, sinks: ["ctfo"])
    try outbox.delivered(older, to: "ctfo", at: 2, sinks: ["ctfo"])
    #expect(try outbox.queued(for: "ctfo") == all.count - 5)
    #expect(try batch(outbox) == all.dropFirst(5).map(\.sequence))
  }
}
