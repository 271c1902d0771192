import FeedCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// JSON Lines cards read from a descriptor as they arrive (`some-command | ctfo --deck -`):
/// a live source. The lines are a deck's, parsed by the same parser; a header line
/// gives its types' labels. Each read's cards are one `added` update, so cards show as they
/// come; a bad line is reported as `NAME:LINE: message` and skipped; the end of the input ends
/// the source (not an error); a read error fails it.
///
/// A thread of its own blocks in read(2), so a quiet pipe costs no CPU; a line longer than
/// `DeckFile.lineLimit` is dropped as it is read, so memory stays bounded.
public final class DeckStream: LiveSource {
  private let stream: AsyncThrowingStream<CardUpdate, any Error>
  private let continuation: AsyncThrowingStream<CardUpdate, any Error>.Continuation
  private let started = Atomic<Bool>(false)
  private let fd: Int32
  private let name: String
  private let onProblem: @Sendable (DeckProblem) -> Void

  /// Reads `fd` (never closed here) once `updates()` is first called; `name` names the input
  /// in problems ("stdin").
  public init(
    fd: Int32, name: String, onProblem: @escaping @Sendable (DeckProblem) -> Void = { _ in }
  ) {
    (stream, continuation) = AsyncThrowingStream.makeStream(of: CardUpdate.self)
    self.fd = fd
    self.name = name
    self.onProblem = onProblem
  }

  public func updates() -> AsyncThrowingStream<CardUpdate, any Error> {
    if !started.exchange(true, ordering: .relaxed) {
      let reader = Reader(
        fd: fd, name: name, continuation: continuation, onProblem: onProblem)
      Self.detach { reader.run() }
    }
    return stream
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

  private struct Reader: Sendable {
    let fd: Int32
    let name: String
    let continuation: AsyncThrowingStream<CardUpdate, any Error>.Continuation
    let onProblem: @Sendable (DeckProblem) -> Void

    func run() {
      var splitter = LineSplitter()
      var parser = DeckParser()
      let chunk = UnsafeMutableRawBufferPointer.allocate(
        byteCount: DeckFile.chunkSize, alignment: 16)
      defer { chunk.deallocate() }
      while true {
        let count = read(fd, chunk.baseAddress, DeckFile.chunkSize)
        if count < 0, errno == EINTR { continue }
        if count < 0 {
          continuation.finish(throwing: DeckProblem.unreadable(name, errno: errno))
          return
        }
        var cards: [Card] = []
        let take: (DeckFile.Line, Int) -> Void = { line, number in
          switch parser.parse(line) {
          case .blank: break
          case .card(let card): cards.append(card)
          case .header(let header):
            if !cards.isEmpty { continuation.yield(.added(cards)) }
            cards = []
            continuation.yield(.types(header.types))
          case .problem(let message):
            onProblem(DeckProblem(path: name, line: number, message: message))
          }
        }
        if count == 0 {
          splitter.finish(take)
        } else {
          splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), take)
        }
        if !cards.isEmpty { continuation.yield(.added(cards)) }
        if count == 0 {
          continuation.finish()
          return
        }
      }
    }
  }
}
