import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// The bytes of request bodies held at once, across every request: past it, an upload is
/// answered `503` before it is read, so clients holding large bodies cannot exhaust memory.
final class UploadBudget: Sendable {
  let capacity: Int
  private let used = Mutex(0)

  init(capacity: Int) { self.capacity = capacity }

  /// Takes `bytes` from the budget; false (and nothing taken) when they do not fit.
  func reserve(_ bytes: Int) -> Bool {
    used.withLock { used in
      guard bytes <= capacity - used else { return false }
      used += bytes
      return true
    }
  }

  func release(_ bytes: Int) { used.withLock { $0 -= bytes } }
}

/// Lets `width` tasks run at once and queues the others in order: the routes that parse and
/// store a body take one, so a flood of large uploads leaves a thread to light requests.
final class WorkGate: Sendable {
  private struct State {
    var free: Int
    var waiting: [CheckedContinuation<Void, Never>] = []
  }
  private let state: Mutex<State>

  init(width: Int) { state = Mutex(State(free: max(1, width))) }

  func run<T>(_ work: () async throws -> T) async throws -> T {
    await enter()
    defer { leave() }
    return try await work()
  }

  private func enter() async {
    await withCheckedContinuation { continuation in
      let admitted = state.withLock { state in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if admitted { continuation.resume() }
    }
  }

  private func leave() {
    let next = state.withLock { state in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil as CheckedContinuation<Void, Never>?
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}

/// What every route that takes a body shares: the upload memory, split between callers the
/// server knows (a valid token or the sink's credentials) and the others, who get a small share
/// (an unauthenticated flood cannot hold what clients' uploads need); and two work gates, bulk
/// bodies in one and small ones (auths, single events) in the other, so that an auth never
/// waits behind a flood of batches.
struct Uploads: Sendable {
  let known: UploadBudget
  let anonymous: UploadBudget
  let bulk: WorkGate
  let light: WorkGate
  let deadline: Duration
  /// The bodies of callers not known held at once, by client address.
  let held: HeldByAddress
  /// What names a request's client address (a trusted proxy's `X-Forwarded-For`).
  let limits: Limits

  /// The largest body that goes through the light gate.
  static let lightBody = 64 << 10
  /// The bodies one client address not known may have read at once: its share of the small
  /// share, so that one address cannot hold every other stranger's auth.
  static let anonymousPerAddress = 8

  init(settings: ServerSettings, limits: Limits) {
    self.limits = limits
    held = HeldByAddress(limit: Self.anonymousPerAddress)
    known = UploadBudget(capacity: settings.uploadMemory)
    anonymous = UploadBudget(capacity: max(settings.uploadMemory / 8, 64 << 10))
    bulk = WorkGate(width: settings.concurrentUploads)
    light = WorkGate(width: settings.concurrentUploads)
    deadline = settings.bodyDeadline
  }

  /// The limits of a route whose bodies are at most `largest` bytes; `identify` names the
  /// caller before a byte of the body is taken (nil: not known), or refuses it (`401`, `429`).
  func limits(
    largest: Int,
    identify: (@Sendable (Request, CTFOContext) async throws -> String?)? = nil
  ) -> UploadLimits {
    UploadLimits(uploads: self, largest: largest, identify: identify)
  }
}

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

/// Stops reading a body no route takes: a request with one to any other route (or to none)
/// has its connection's input closed, so the body is never read and held; its answer is
/// still sent, and the connection ends with it.
struct UnreadBodies: RouterMiddleware {
  /// The routes that read a body, `METHOD PATH`.
  let routes: Set<String>

  func handle(
    _ request: Request, context: CTFOContext,
    next: (Request, CTFOContext) async throws -> Response
  ) async throws -> Response {
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    if declared.map({ $0 > 0 }) ?? (request.headers[.transferEncoding] != nil),
      !routes.contains("\(request.method.rawValue) \(request.uri.path)")
    {
      context.channel.close(mode: .input, promise: nil)
    }
    return try await next(request, context)
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

/// Reads its connection 8 KiB at a time, not up to 64 KiB: what a connection holds before its
/// handler takes it is a few reads (the channel's backpressure), so a thousand connections
/// sending bodies at once hold megabytes, not hundreds of them.
final class SmallReads: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  func handlerAdded(context: ChannelHandlerContext) {
    try? context.channel.syncOptions?.setOption(
      ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 8192))
  }
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

extension APIFailure {
  /// The server holds as many bodies as it takes at once.
  static let busy = APIFailure(
    .serviceUnavailable, code: "busy", message: "too many uploads at once", retryAfter: 1)

  static func tooLarge(_ limit: Int) -> APIFailure {
    APIFailure(.contentTooLarge, code: "too_large", message: "the body is over \(limit) bytes")
  }
}

/// Answers an HTTP/1.0 request in HTTP/1.0, on a connection that ends with the answer: the
/// request is handed on saying `Connection: close` (what ends a connection for the router and
/// the pull lane), and the answer's head goes out as version 1.0. It sits before the
/// conversion to HTTP types, which drops the version.
final class HTTP10Answers: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Whether the request being answered is HTTP/1.0.
  private var old = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    old = head.version.major == 1 && head.version.minor == 0
    if old {
      head.headers.replaceOrAdd(name: "Connection", value: "close")
      head.version = .http1_1
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard old, case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
      context.write(data, promise: promise)
      return
    }
    head.version = .http1_0
    head.headers.replaceOrAdd(name: "Connection", value: "close")
    context.write(wrapOutboundOut(.head(head)), promise: promise)
  }

  /// Puts an `HTTP10Answers` before the connection's `HTTP1ToHTTPServerCodec` (the handlers
  /// Hummingbird is given go after it), then leaves.
  final class Installer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    // The event goes on before the installer leaves: a context removed passes nothing on.
    func channelActive(context: ChannelHandlerContext) {
      let installed = install(context)
      context.fireChannelActive()
      if installed { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      let installed = install(context)
      context.fireChannelRead(data)
      if installed { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    private func install(_ context: ChannelHandlerContext) -> Bool {
      let pipeline = context.pipeline.syncOperations
      guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else {
        return false
      }
      try? pipeline.addHandler(HTTP10Answers(), position: .before(codec))
      return true
    }
  }
}

/// Counts what each key holds at once, up to `limit`.
final class HeldByAddress: Sendable {
  private let limit: Int
  private let counts = Mutex<[String: Int]>([:])

  init(limit: Int) { self.limit = limit }

  /// Takes one for `key`; false (and nothing taken) when it holds `limit` already.
  func enter(_ key: String) -> Bool {
    counts.withLock { counts in
      let count = counts[key, default: 0]
      guard count < limit else { return false }
      counts[key] = count + 1
      return true
    }
  }

  func leave(_ key: String) {
    counts.withLock { counts in
      let count = counts[key, default: 1] - 1
      counts[key] = count > 0 ? count : nil
    }
  }
}
