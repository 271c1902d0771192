import CommandSupport
import Dispatch
import ServerAPI
import Store
import Synchronization

/// Runs the app's analytics sinks (issue 15): each flushes on a thread of its own (the CTFO
/// server's on the server link's, so one request at a time goes to the server), when the app
/// records events and when a wait the sink asked for ends. No timer is armed while nothing is
/// queued, so an idle app uses no CPU; one sink failing never holds another back.
///
///     let runner = AnalyticsRunner(sinks: deliveries)
///     runner.poke()                  // events were committed
///     runner.finish(within: .seconds(2))  // at quit; the rest waits for the next run
final class AnalyticsRunner: Sendable {
  private final class Sink: Sendable {
    let delivery: SinkDelivery
    let thread: BackgroundThread
    let state = Mutex(State())

    struct State {
      var running = false
      var again = false
      /// When the armed timer fires (ms since the epoch).
      var armedFor: Int64?
      var timer: TimerBox?
    }

    init(delivery: SinkDelivery, thread: BackgroundThread) {
      self.delivery = delivery
      self.thread = thread
    }
  }

  /// A one-shot timer, held so that it can be cancelled.
  final class TimerBox: Sendable {
    // Dispatch sources are safe to use from any thread; Dispatch does not say Sendable.
    nonisolated(unsafe) let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
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
    deliveries: [(SinkDelivery, BackgroundThread?)], outbox: Outbox? = nil,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds,
    changed: @escaping @Sendable () -> Void = {}
  ) {
    sinks = deliveries.map { Sink(delivery: $0.0, thread: $0.1 ?? BackgroundThread()) }
    self.now = now
    self.outbox = outbox
    self.changed = changed
  }

  /// The most events waiting for a failing sink, when it changed since the last call.
  func takeQueued() -> Int? {
    queued.withLock { state in
      guard state.changed else { return nil }
      state.changed = false
      return state.bySink.values.max() ?? 0
    }
  }

  private func note(_ sink: Sink, _ outcome: SinkDelivery.Outcome) {
    let name = sink.delivery.kind.rawValue
    let count: Int
    if case .waiting = outcome, let outbox { count = (try? outbox.queued(for: name)) ?? 0 } else {
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

  /// A one-shot timer for the time a waiting sink may send again; none when it is empty.
  private func arm(_ sink: Sink, for outcome: SinkDelivery.Outcome) {
    let until: Int64? =
      if case .waiting(let at) = outcome { at } else { nil }
    let box: TimerBox? = until.map { at in
      let source = DispatchSource.makeTimerSource(queue: .global())
      let delay = max(at - now(), 0)
      source.schedule(deadline: .now() + .milliseconds(Int(min(delay, 86_400_000))), leeway: .milliseconds(200))
      source.setEventHandler { [weak self] in self?.poke(sink) }
      return TimerBox(source)
    }
    let old = sink.state.withLock { state in
      defer {
        state.timer = box
        state.armedFor = until
      }
      return state.timer
    }
    old?.source.cancel()
    box?.source.resume()
  }

  /// Whether a timer is armed for any sink (tests: none while nothing is queued).
  var armed: Bool { sinks.contains { $0.state.withLock { $0.timer != nil } } }

  /// At quit: each sink sends what it may for at most `limit`; what is left waits in the
  /// outbox for the next run.
  func finish(within limit: Duration) {
    let deadline = ContinuousClock.now + limit
    let done = DispatchSemaphore(value: 0)
    for sink in sinks {
      sink.state.withLock { $0.timer }?.source.cancel()
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
