import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Reads a route's request body before the route runs, once the route and its caller are
/// known: within `deadline`, within the route's limit `largest`, and within the caller's share
/// of the upload memory; then lets the route run through a work gate. A body refused (`503`,
/// too large: the route's own answer, or a caller refused) is still read to its end and
/// dropped, as a client sends it all before it reads the answer; a body that is late is cut
/// (`408`), and a client that leaves mid-body gets `400`, not an error in the log.
struct UploadLimits: RouterMiddleware {
  let uploads: Uploads
  let largest: Int
  let identify: (@Sendable (Request, CTFOContext) async throws -> String?)?

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    var context = context
    var refusal: APIFailure?
    do {
      context.caller = try await identify?(request, context)
    } catch let failure as APIFailure {
      refusal = failure
    }
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    guard declared.map({ $0 > 0 }) ?? (request.headers[.transferEncoding] != nil) else {
      if let refusal { throw refusal }
      return try await uploads.light.run { try await next(request, context) }
    }
    let channel = context.channel
    // A client that waits for `100 Continue` is told to send its body once its caller is
    // known, or answered at once without it.
    if request.headers[.expect]?.lowercased() == "100-continue" {
      if let refusal {
        channel.close(mode: .input, promise: nil)
        throw refusal
      }
      channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)), promise: nil)
    }
    let late = Flag()
    let timer = channel.eventLoop.scheduleTask(in: TimeAmount(uploads.deadline)) {
      late.raise()
      channel.close(mode: .input, promise: nil)
    }
    defer { timer.cancel() }
    let upload = Upload(
      budget: context.caller == nil ? uploads.anonymous : uploads.known, largest: largest)
    defer { upload.end() }
    // A caller refused already is read to drop its body: it holds nothing.
    let address =
      context.caller == nil && refusal == nil
      ? uploads.limits.client(
        peer: channel.remoteAddress?.ipAddress ?? "",
        forwardedFor: request.headers[values: .xForwardedFor]) : nil
    let entered = address.map { uploads.held.enter($0) } ?? false
    defer { if entered, let address { uploads.held.leave(address) } }
    if address != nil, !entered { refusal = .busy }
    let read: Result<ByteBuffer, APIFailure>
    do {
      read = try await upload.read(request.body, declared: declared, refusal: refusal)
    } catch {
      channel.close(mode: .input, promise: nil)
      if late.isRaised {
        throw APIFailure(
          .requestTimeout, code: "too_slow", message: "the body did not arrive in time")
      }
      throw APIFailure(.badRequest, code: "incomplete", message: "the body ended early")
    }
    timer.cancel()
    var forwarded = request
    let gate: WorkGate
    switch read {
    case .success(let body):
      forwarded.body = RequestBody(buffer: body)
      gate = body.readableBytes > Uploads.lightBody ? uploads.bulk : uploads.light
    case .failure(let refusal) where refusal.status == .contentTooLarge:
      forwarded.body = RequestBody(asyncSequence: OverLimit(limit: largest))
      gate = uploads.light
    case .failure(let refusal): throw refusal
    }
    return try await gate.run { try await next(forwarded, context) }
  }

  /// Set once, by the deadline's timer.
  private final class Flag: Sendable {
    private let value = Atomic(false)
    var isRaised: Bool { value.load(ordering: .acquiring) }
    func raise() { value.store(true, ordering: .releasing) }
  }
}

/// One body as it is read, and the part of the budget it holds until `end`.
private final class Upload {
  let budget: UploadBudget
  let largest: Int
  private var held = 0

  init(budget: UploadBudget, largest: Int) {
    self.budget = budget
    self.largest = largest
  }

  /// The body, or why it is refused; throws when the stream ends short of `declared`.
  func read(
    _ body: RequestBody, declared: Int?, refusal refused: APIFailure? = nil
  ) async throws -> Result<ByteBuffer, APIFailure> {
    var buffer = ByteBuffer()
    var refusal = refused
    // A declared length is taken from the budget before a byte is read.
    if let declared, refusal == nil {
      refusal = declared > largest ? .tooLarge(largest) : take(declared) ? nil : .busy
      if refusal == nil { buffer.reserveCapacity(declared) }
    }
    var total = 0
    for try await chunk in body {
      total += chunk.readableBytes
      guard refusal == nil else { continue }
      if total > largest {
        refusal = .tooLarge(largest)
      } else if total > held, !take(total - held) {
        refusal = .busy
      } else {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
      }
      if refusal != nil {
        buffer = ByteBuffer()
        end()
      }
    }
    guard declared.map({ $0 == total }) ?? true else { throw Incomplete() }
    return refusal.map { .failure($0) } ?? .success(buffer)
  }

  /// Gives back what the body held.
  func end() {
    budget.release(held)
    held = 0
  }

  private func take(_ bytes: Int) -> Bool {
    guard budget.reserve(bytes) else { return false }
    held += bytes
    return true
  }

  /// The stream ended before the declared length.
  private struct Incomplete: Error {}
}

/// A body over the limit, for its route to refuse in its own words: reading it throws what
/// `collect(upTo:)` throws past the limit.
private struct OverLimit: AsyncSequence, Sendable {
  let limit: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let limit: Int
    func next() async throws -> ByteBuffer? { throw NIOTooManyBytesError(maxBytes: limit) }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit) }
}
