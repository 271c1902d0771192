import CTFOWire
import CZlib
import CompressNIO
import Foundation
import NIOCore
import Synchronization

/// The JSON of a pull, keys sorted (`JSONEncoder`'s `.sortedKeys`), so that the same pull is
/// the same bytes in every server process; and its gzip (RFC 1952).
///
/// A full pull is three parts: the head (the cache key), what every client's full pull of the
/// feed at that revision shares (cards, the operator's scores: `Shared`, built once and kept
/// in `PullCache` with its deflated bytes), and the tail (the install's own scores, the server
/// time, the types, the user). Each part is deflated on its own, the shared one ending on a
/// sync flush so that the three are one deflate stream, and the gzip's CRC-32 is joined from
/// the parts' (`ctfo_crc32_combine`): a gzip full pull deflates only its head and tail.
enum PullBody {
  /// The encoder of every value in a pull.
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// A whole pull's bytes (a delta, or a full pull built without the cache).
  static func json(_ pull: Wire.Pull) throws -> [UInt8] {
    Array(try encoder().encode(pull))
  }

  /// What every client's full pull of one feed at one revision shares, as bytes.
  final class Shared: Sendable {
    /// `"cards":[…],"full":true,"removed":[],"scores":[` and the operator's scores, unclosed.
    let middle: [UInt8]
    let hasScores: Bool
    let types: [UInt8]
    let notifications: [UInt8]
    private let deflated = Mutex<Deflated?>(nil)

    init(_ changes: Changes) throws {
      let encoder = PullBody.encoder()
      let cards = try encoder.encode(changes.cards)
      let scores = try encoder.encode(changes.scores)
      var middle = Array(#""cards":"#.utf8)
      middle += cards
      middle += Array(#","full":true,"removed":[],"scores":["#.utf8)
      middle += scores.dropFirst().dropLast()
      self.middle = middle
      hasScores = !changes.scores.isEmpty
      types = Array(try encoder.encode(changes.types))
      notifications = Array(try encoder.encode(changes.notifications))
    }

    /// `middle` deflated, ending on a sync flush, with its CRC-32: made on first use, once.
    func deflatedMiddle() throws -> Deflated {
      try deflated.withLock { deflated in
        if let deflated { return deflated }
        let made = Deflated(
          bytes: try PullBody.deflate(middle, last: false), crc: PullBody.crc(middle),
          count: middle.count)
        deflated = made
        return made
      }
    }
  }

  /// A part of a body deflated: its bytes, and the CRC-32 and length of what they inflate to.
  struct Deflated: Sendable {
    var bytes: ByteBuffer
    var crc: UInt
    var count: Int
  }

  /// A full pull: the shared part between the head and the tail made for this request.
  /// Byte for byte the JSON of the same `Wire.Pull` (`json`).
  static func full(
    shared: Shared, cacheKey: String, serverTime: Int64, own: Changes, gzip: Bool
  ) throws -> ByteBuffer {
    let coder = encoder()
    var head = Array(#"{"cacheKey":"#.utf8)
    head += try coder.encode(cacheKey)
    head.append(UInt8(ascii: ","))
    var tail: [UInt8] = []
    if !own.scores.isEmpty {
      if shared.hasScores { tail.append(UInt8(ascii: ",")) }
      tail += try coder.encode(own.scores).dropFirst().dropLast()
    }
    tail += Array(#"],"serverTime":\#(serverTime),"types":"#.utf8)
    tail += shared.types
    tail += Array(#","user":{"notifications":"#.utf8)
    tail += shared.notifications
    tail += Array(#","status":"#.utf8)
    tail += try coder.encode(own.userStatus ?? Changes.defaultStatus)
    tail += Array("}}".utf8)
    guard gzip else {
      var body = ByteBuffer()
      body.reserveCapacity(head.count + shared.middle.count + tail.count)
      body.writeBytes(head)
      body.writeBytes(shared.middle)
      body.writeBytes(tail)
      return body
    }
    let middle = try shared.deflatedMiddle()
    let first = Deflated(bytes: stored(head, last: false), crc: crc(head), count: head.count)
    let last = Deflated(
      bytes: tail.count <= storedLimit ? stored(tail, last: true) : try deflate(tail, last: true),
      crc: crc(tail), count: tail.count)
    return gzipped([first, middle, last])
  }

  /// A body whole in gzip.
  static func gzip(_ body: [UInt8]) throws -> ByteBuffer {
    gzipped([Deflated(bytes: try deflate(body, last: true), crc: crc(body), count: body.count)])
  }

  /// The gzip member of parts deflated one after the other, the last one final.
  static func gzipped(_ parts: [Deflated]) -> ByteBuffer {
    var out = ByteBuffer()
    out.reserveCapacity(18 + parts.reduce(0) { $0 + $1.bytes.readableBytes })
    // ID1 ID2, deflate, no flags, no time, no extra flags, OS: Unix.
    out.writeBytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
    var crc: UInt = 0
    var count = 0
    for part in parts {
      out.writeImmutableBuffer(part.bytes)
      crc = count == 0 ? part.crc : ctfo_crc32_combine(crc, part.crc, part.count)
      count += part.count
    }
    out.writeInteger(UInt32(truncatingIfNeeded: crc), endianness: .little)
    out.writeInteger(UInt32(truncatingIfNeeded: count), endianness: .little)
    return out
  }

  /// The longest head or tail sent as it is (`stored`): a few hundred bytes compress to little,
  /// and a compressor's set-up costs more than sending them (an install's many own scores are
  /// compressed).
  static let storedLimit = 4096

  /// `bytes` as deflate's stored blocks (RFC 1951, 3.2.4), the last one final when `last`:
  /// byte aligned, as the part before it ends (a sync flush) and as the next one begins.
  static func stored(_ bytes: [UInt8], last: Bool) -> ByteBuffer {
    var out = ByteBuffer()
    out.reserveCapacity(bytes.count + 5 * (bytes.count / 65535 + 1))
    var start = 0
    repeat {
      let end = min(bytes.count, start + 65535)
      out.writeInteger(UInt8(last && end == bytes.count ? 1 : 0))
      out.writeInteger(UInt16(end - start), endianness: .little)
      out.writeInteger(~UInt16(end - start), endianness: .little)
      out.writeBytes(bytes[start..<end])
      start = end
    } while start < bytes.count
    return out
  }

  /// Raw deflate of `bytes`: the final block when `last`, else ending on a sync flush (byte
  /// aligned, not final), so that another part's deflate can follow.
  private static func deflate(_ bytes: [UInt8], last: Bool) throws -> ByteBuffer {
    let compressor = try ZlibCompressor(algorithm: .deflate)
    var input = ByteBuffer(bytes: bytes)
    var output = ByteBuffer()
    output.reserveCapacity(compressor.maxSize(from: input))
    try compressor.deflate(from: &input, to: &output, flush: last ? .finish : .sync)
    return output
  }

  static func crc(_ bytes: [UInt8]) -> UInt {
    bytes.withUnsafeBytes { ctfo_crc32(0, $0.baseAddress, $0.count) }
  }
}

/// Full pulls from memory: per feed, the shared part of the newest revision pulled
/// (`PullBody.Shared`). A store's change moves its shared revision, and with it the key; an
/// older key is built for its request and not kept.
public final class PullCache: Sendable {
  struct Key: Hashable, Sendable {
    var epoch: String
    var feed: PullFeed
    var revision: Int64
    var bodyLimit: Int
  }

  private let entries = Mutex<[PullFeed: (key: Key, shared: PullBody.Shared)]>([:])
  private let hits = Atomic<Int>(0)

  public init() {}

  /// How many full pulls were answered from a shared part already built.
  public var hitCount: Int { hits.load(ordering: .relaxed) }

  /// The shared part kept for `feed` at the store's shared revision `revision`, nil when
  /// none is: what a pull answered at once takes (`PullLane`).
  func kept(epoch: String, feed: PullFeed, revision: Int64, bodyLimit: Int) -> PullBody.Shared? {
    let key = Key(epoch: epoch, feed: feed, revision: revision, bodyLimit: bodyLimit)
    guard let kept = entries.withLock({ $0[feed] }), kept.key == key else { return nil }
    hits.add(1, ordering: .relaxed)
    return kept.shared
  }

  /// The shared part of a full pull of `feed`, from memory when the store's shared revision
  /// is the one kept (then `fromMemory` is called). Built from the store otherwise, and kept
  /// when the revision did not move while it was read.
  func shared(
    store: any PullStore, feed: PullFeed, bodyLimit: Int, fromMemory: () -> Void = {}
  ) async throws -> PullBody.Shared {
    let key = Key(
      epoch: try await store.epoch(), feed: feed,
      revision: try await store.revision(install: nil, feed: feed), bodyLimit: bodyLimit)
    if let kept = entries.withLock({ $0[feed] }), kept.key == key {
      hits.add(1, ordering: .relaxed)
      fromMemory()
      return kept.shared
    }
    let shared = try PullBody.Shared(
      await store.changes(since: nil, feed: feed, bodyLimit: bodyLimit, install: nil))
    guard try await store.revision(install: nil, feed: feed) == key.revision else {
      return shared
    }
    entries.withLock { entries in
      if let kept = entries[feed], kept.key.epoch == key.epoch,
        kept.key.bodyLimit == key.bodyLimit, kept.key.revision > key.revision
      {
        return
      }
      entries[feed] = (key, shared)
    }
    return shared
  }
}
