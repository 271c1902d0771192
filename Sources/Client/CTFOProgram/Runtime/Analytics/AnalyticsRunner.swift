import CTFOClient
import CTFOWire
import Dispatch
import Store
import Synchronization

/// The app's analytics: runs its sinks (a `SinkDelivery` each) from the outbox the app records
/// events to. Each sink flushes on a thread of its own (the CTFO server's too: a batch the
/// server holds never holds the user's pull on the link's), when the app records events and
/// when a wait the sink asked for ends. No timer is armed while nothing is queued, so an idle
/// app uses no CPU; one sink failing never holds another back.
///
///     let runner = AnalyticsRunner(
///       configuration: config, recording: true, outbox: outbox, database: db, pull: pull,
///       changed: { wake.wake() })
///     runner.poke()                  // events were committed
///     runner.finish(within: .seconds(2))  // at quit; the rest waits for the next run
final class AnalyticsRunner: Sendable {
  private final class Sink: Sendable {
    let delivery: SinkDelivery
    let thread: BackgroundThread
    let state = Mutex(State())
    /// One timer for the sink's life, set to the time a wait ends, or to never (no wake-up).
    // Dispatch sources are safe to use from any thread; Dispatch does not say Sendable.
    nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: .global())

    struct State {
      var running = false
      var again = false
      /// When the armed timer fires (ms since the epoch).
      var armedFor: Int64?
      /// The wait whose queued count the hint bar shows.
      var noted: Int64?
    }

    init(delivery: SinkDelivery, thread: BackgroundThread) {
      self.delivery = delivery
      self.thread = thread
    }
  }

  private let sinks: [Sink]
  private let now: @Sendable () -> Int64
  private let outbox: Outbox?
  /// Events waiting for each sink that is failing; nil once read (`takeQueued`).
  private let queued = Mutex<(bySink: [String: Int], changed: Bool)>(([:], false))
  private let changed: @Sendable () -> Void
  /// How long one flush may send before it lets a waiting poke in.
  static let flushDeadline = Duration.seconds(30)

  /// `changed` is called (on a sink's thread) when the count of events waiting for a failing
  /// sink changes: the hint bar shows it.
  init(
    deliveries: [SinkDelivery], outbox: Outbox? = nil,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds,
    changed: @escaping @Sendable () -> Void = {}
  ) {
    sinks = deliveries.map { Sink(delivery: $0, thread: BackgroundThread()) }
    self.now = now
    self.outbox = outbox
    self.changed = changed
    for sink in sinks {
      sink.timer.setEventHandler { [weak self] in self?.poke(sink) }
      sink.timer.schedule(deadline: .distantFuture)
      sink.timer.resume()
    }
  }

  /// The app's runner: a sink for each `AnalyticsSinks.configured(configuration)` when
  /// `recording` (none when analytics are off), sending over HTTP; the CTFO server's through
  /// `pull`.
  convenience init(
    configuration: Configuration, recording: Bool, outbox: Outbox, database: StateDatabase,
    pull: ServerPull?, changed: @escaping @Sendable () -> Void
  ) {
    let sinks = recording ? AnalyticsSinks.configured(configuration) : []
    self.init(
      deliveries: sinks.map { kind in
        SinkDelivery(kind: kind, configuration: configuration, database: database, pull: pull)
      }, outbox: outbox, changed: changed)
  }

  /// The most events waiting for a failing sink, when it changed since the last call.
  func takeQueued() -> Int? {
    queued.withLock { state in
      guard state.changed else { return nil }
      state.changed = false
      return state.bySink.values.max() ?? 0
    }
  }

  /// Counts the events waiting for `sink` when a new wait begins (a send failed) or the sink
  /// has emptied; not while it waits out the same failure: each swipe would redraw the count.
  private func note(_ sink: Sink, _ outcome: SinkDelivery.Outcome) {
    let name = sink.delivery.kind.rawValue
    let until: Int64? = if case .waiting(let at) = outcome { at } else { nil }
    let fresh = sink.state.withLock { state in
      defer { state.noted = until }
      return state.noted != until || until == nil
    }
    guard fresh else { return }
    let count: Int
    if until != nil, let outbox { count = (try? outbox.queued(for: name)) ?? 0 } else {
      count = 0
    }
    let differs = queued.withLock { state in
      guard state.bySink[name, default: 0] != count else { return false }
      state.bySink[name] = count
      state.changed = true
      return true
    }
    if differs { changed() }
  }

  var isEmpty: Bool { sinks.isEmpty }

  /// Events were recorded: every sink that is not waiting sends them.
  func poke() {
    for sink in sinks { poke(sink) }
  }

  private func poke(_ sink: Sink) {
    let start = sink.state.withLock { state in
      if state.running {
        state.again = true
        return false
      }
      state.running = true
      return true
    }
    guard start else { return }
    sink.thread.async { [self] in run(sink) }
  }

  private func run(_ sink: Sink) {
    while true {
      let outcome = sink.delivery.flush(deadline: .now + Self.flushDeadline)
      let again = sink.state.withLock { state in
        if state.again, outcome == .empty || isDue(outcome) {
          state.again = false
          return true
        }
        state.again = false
        state.running = false
        return false
      }
      if again { continue }
      note(sink, outcome)
      arm(sink, for: outcome)
      return
    }
  }

  private func isDue(_ outcome: SinkDelivery.Outcome) -> Bool {
    guard case .waiting(let until) = outcome else { return false }
    return until <= now()
  }

  /// Sets the sink's timer to the time a waiting sink may send again; to never when it is
  /// empty, so an idle app is never woken.
  private func arm(_ sink: Sink, for outcome: SinkDelivery.Outcome) {
    let until: Int64? =
      if case .waiting(let at) = outcome { at } else { nil }
    sink.state.withLock { $0.armedFor = until }
    guard let until else { return sink.timer.schedule(deadline: .distantFuture) }
    let delay = Int(min(max(until - now(), 0), 86_400_000))
    sink.timer.schedule(deadline: .now() + .milliseconds(delay), leeway: .milliseconds(200))
  }

  /// Whether a timer is armed for any sink (tests: none while nothing is queued).
  var armed: Bool { sinks.contains { $0.state.withLock { $0.armedFor != nil } } }

  /// At quit: each sink sends what it may for at most `limit`; what is left waits in the
  /// outbox for the next run.
  func finish(within limit: Duration) {
    let deadline = ContinuousClock.now + limit
    let done = DispatchSemaphore(value: 0)
    for sink in sinks {
      sink.timer.schedule(deadline: .distantFuture)
      sink.thread.async {
        _ = sink.delivery.flush(deadline: deadline)
        done.signal()
      }
    }
    for _ in sinks {
      let left = deadline - .now
      let nanoseconds = max(left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000, 0)
      guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return }
    }
  }
}
