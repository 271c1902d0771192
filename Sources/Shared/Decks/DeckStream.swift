import Dispatch
import FeedCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// JSON Lines cards read from a descriptor as they arrive (`some-command | ctfo --deck -`):
/// the updates of a live source (a feed follows it as `SequenceSource(stream)`). The lines are
/// a deck's, parsed by the same parser; a header line gives its types' labels. Each read's
/// cards are one `added` update, so cards show as they come; a bad line is reported as
/// `NAME:LINE: message` and skipped; the end of the input ends the source (not an error); a
/// read error fails it.
///
/// Bounded whatever the input: a line longer than `DeckFile.lineLimit` is dropped as it is
/// read; the source holds at most `limit` cards, and past it the oldest leave (a `removed`
/// update), so an endless stream keeps its newest cards; and at most `inFlight` updates wait
/// for the consumer, the reader blocking until it takes one, so a fast writer cannot fill
/// memory ahead of a slow feed. A thread of its own blocks in read(2), so a quiet pipe costs no
/// CPU.
public final class DeckStream: AsyncSequence, Sendable {
  public typealias Element = CardUpdate

  /// The most cards a stream holds by default.
  public static let cardLimit = 10_000
  /// The most updates waiting for the consumer.
  static let inFlight = 4

  private let stream: AsyncThrowingStream<CardUpdate, any Error>
  private let continuation: AsyncThrowingStream<CardUpdate, any Error>.Continuation
  private let started = Atomic<Bool>(false)
  private let fd: Int32
  private let name: String
  private let limit: Int
  private let flow: Flow
  private let onProblem: @Sendable (DeckProblem) -> Void

  /// Reads `fd` (never closed here) once first iterated; `name` names the input in problems
  /// ("stdin"); `limit` is the most cards held at once.
  public init(
    fd: Int32, name: String, limit: Int = DeckStream.cardLimit,
    onProblem: @escaping @Sendable (DeckProblem) -> Void = { _ in }
  ) {
    (stream, continuation) = AsyncThrowingStream.makeStream(of: CardUpdate.self)
    self.fd = fd
    self.name = name
    self.limit = Swift.max(limit, 1)
    self.onProblem = onProblem
    let flow = Flow()
    self.flow = flow
    continuation.onTermination = { _ in flow.end() }
  }

  /// The updates, read from the first call on (one consumer).
  public func makeAsyncIterator() -> Iterator {
    if !started.exchange(true, ordering: .relaxed) {
      let reader = Reader(
        fd: fd, name: name, limit: limit, flow: flow, continuation: continuation,
        onProblem: onProblem)
      Self.detach { reader.run() }
    }
    return Iterator(base: stream.makeAsyncIterator(), flow: flow)
  }

  /// The stream's updates; each one taken makes room for the reader to send another.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<CardUpdate, any Error>.Iterator
    let flow: Flow

    public mutating func next() async throws -> CardUpdate? {
      let update = try await base.next()
      if update != nil { flow.taken() }
      return update
    }
  }

  /// The room the reader has for updates the consumer has not taken yet, and whether the
  /// consumer has gone.
  final class Flow: Sendable {
    private let room = DispatchSemaphore(value: DeckStream.inFlight)
    private let ended = Atomic<Bool>(false)

    /// Waits for room for one more update; false once the consumer has gone.
    func reserve() -> Bool {
      guard !ended.load(ordering: .acquiring) else { return false }
      room.wait()
      return !ended.load(ordering: .acquiring)
    }

    func taken() { room.signal() }

    func end() {
      ended.store(true, ordering: .releasing)
      room.signal()
    }
  }

  /// Runs `body` on a detached thread of its own (a read that may block for hours must not
  /// hold a thread of Swift's cooperative pool).
  private static func detach(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let raw = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let made = pthread_create(
      &thread, nil,
      { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
      }, raw)
    if made == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
    }
  }

  /// The ids the source holds, oldest first: a new id past `limit` evicts the oldest.
  struct Held {
    let limit: Int
    private var ids: Set<String> = []
    private var order: [String] = []
    private var first = 0

    init(limit: Int) { self.limit = limit }

    var count: Int { ids.count }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Takes `cards` in; the ids that leave to make room, oldest first.
    mutating func take(_ cards: [Card]) -> [String] {
      var evicted: [String] = []
      for card in cards where ids.insert(card.id).inserted {
        order.append(card.id)
        if ids.count > limit {
          let oldest = order[first]
          first += 1
          ids.remove(oldest)
          evicted.append(oldest)
        }
      }
      if first > 4096 && first * 2 > order.count {
        order.removeFirst(first)
        first = 0
      }
      return evicted
    }
  }

  private struct Reader: Sendable {
    let fd: Int32
    let name: String
    let limit: Int
    let flow: Flow
    let continuation: AsyncThrowingStream<CardUpdate, any Error>.Continuation
    let onProblem: @Sendable (DeckProblem) -> Void

    func run() {
      var splitter = LineSplitter()
      var parser = DeckParser()
      var held = Held(limit: limit)
      let chunk = UnsafeMutableRawBufferPointer.allocate(
        byteCount: DeckFile.chunkSize, alignment: 16)
      defer { chunk.deallocate() }
      // Sends one update once the consumer has room for it; false once it has gone.
      let send = { (update: CardUpdate) -> Bool in
        guard flow.reserve() else { return false }
        continuation.yield(update)
        return true
      }
      // The ids the cards read push out, then the cards (so the source never holds more
      // than its limit); false once the consumer has gone.
      let sendCards = { (cards: [Card]) -> Bool in
        guard !cards.isEmpty else { return true }
        let fresh = Set(cards.lazy.map(\.id).filter { !held.contains($0) })
        let evicted = held.take(cards)
        // Those new in this read and already pushed out by the cards after them were never
        // sent, and are not sent now.
        let removed = evicted.filter { !fresh.contains($0) }
        if !removed.isEmpty, !send(.removed(removed)) { return false }
        let gone = Set(evicted)
        let kept = gone.isEmpty ? cards : cards.filter { !gone.contains($0.id) }
        return kept.isEmpty || send(.added(kept))
      }
      while true {
        let count = read(fd, chunk.baseAddress, DeckFile.chunkSize)
        if count < 0, errno == EINTR { continue }
        if count < 0 {
          continuation.finish(throwing: DeckProblem.unreadable(name, errno: errno))
          return
        }
        var cards: [Card] = []
        var open = true
        let take: (DeckFile.Line, Int) -> Void = { line, number in
          switch parser.parse(line) {
          case .blank: break
          case .card(let card): cards.append(card)
          case .header(let header):
            if open { open = sendCards(cards) }
            cards = []
            if open { open = send(.types(header.types)) }
          case .problem(let message):
            onProblem(DeckProblem(path: name, line: number, message: message))
          }
        }
        if count == 0 {
          splitter.finish(take)
        } else {
          splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), take)
        }
        if open { open = sendCards(cards) }
        if count == 0 || !open {
          continuation.finish()
          return
        }
      }
    }
  }
}
