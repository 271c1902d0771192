import CTFOClient
import CTFOWire
import FeedCore
import HTTP
import Store
import Synchronization

/// The sinks the configuration sends analytics to: none when analytics are off
/// (`analytics = false`, `--no-analytics`, `DO_NOT_TRACK=1`); the CTFO server when one is
/// configured (and `[analytics] server` is not false); Mixpanel with a project token; GA4
/// with a measurement id and an API secret.
public enum AnalyticsSinks {
  public static func configured(_ configuration: Configuration) -> [SinkKind] {
    let settings = configuration.analytics
    guard settings.enabled else { return [] }
    var sinks: [SinkKind] = []
    if settings.toServer, configuration.server != nil { sinks.append(.ctfo) }
    if settings.mixpanelToken != nil { sinks.append(.mixpanel) }
    if settings.gaMeasurementID != nil, settings.gaAPISecret != nil { sinks.append(.ga) }
    return sinks
  }

  /// What every event says of this program (its `Identify`).
  public static let context = Outbox.Context(
    app: "ctfo/\(Release.version)", locale: ServerPull.locale)
}

/// Sends one sink's events from the outbox: batches from the sink's cursor, in
/// order, each within the sink's limits; an answer acknowledges, splits, dead-letters or
/// backs off as `SinkVerdict` says. Blocking, on a thread of the caller's; nothing here arms a
/// timer: `flush` says when to come back, and the caller decides.
///
/// Retries: `429`, `5xx`, redirects (never followed), other refusals, network errors and
/// timeouts wait 2 s doubling to 60 s, plus 1 to 5 s of jitter, or `Retry-After` when the
/// answer gives it. The wait is stored with the sink, so a restart honours it too. Nothing is
/// ever dropped: an event refused for good goes to dead letters, kept and counted.
///
///     let delivery = SinkDelivery(kind: .mixpanel, configuration: config, database: db, ...)
///     switch delivery.flush(deadline: .now + .seconds(30)) { case .waiting(let at): ... }
public final class SinkDelivery: Sendable {
  public let kind: SinkKind
  private let outbox: Outbox
  /// Every configured sink: the outbox is emptied when all of them have every event.
  private let sinks: [String]
  private let send:
    @Sendable ([String], Int64, ContinuousClock.Instant) -> SinkVerdict
  private let now: @Sendable () -> Int64
  private let jitter: @Sendable () -> Int64
  /// The batch size now: halved by `413`s, cut to `probeBatch` by a failure, doubled back by
  /// successes.
  private let limit: Mutex<Int>

  /// A sink over `send`, which sends the payloads (sent at the given time) and reads the
  /// answer. `now` is the clock (ms since the epoch), `jitter` the random part of a wait (ms).
  public init(
    kind: SinkKind, outbox: Outbox, sinks: [SinkKind],
    send: @escaping @Sendable ([String], Int64, ContinuousClock.Instant) -> SinkVerdict,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds,
    jitter: @escaping @Sendable () -> Int64 = { Int64.random(in: 1000...5000) }
  ) {
    self.kind = kind
    self.outbox = outbox
    self.sinks = sinks.map(\.rawValue)
    self.send = send
    self.now = now
    self.jitter = jitter
    limit = Mutex(kind.limits.events)
  }

  /// The sink `kind` of `configuration`, sending over HTTP; the CTFO server's through `pull`
  /// (its token, one re-auth on `401`).
  public convenience init(
    kind: SinkKind, configuration: Configuration, database: StateDatabase, pull: ServerPull?,
    now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds,
    jitter: @escaping @Sendable () -> Int64 = { Int64.random(in: 1000...5000) }
  ) {
    let settings = configuration.analytics
    let outbox = Outbox(database: database)
    let send: @Sendable ([String], Int64, ContinuousClock.Instant) -> SinkVerdict
    switch kind {
    case .ctfo:
      send = { payloads, sentAt, deadline in
        guard let pull else { return .retry(status: nil, after: nil, reason: "no server") }
        return Self.verdict {
          EventFormat.importVerdict(
            try pull.exchange(EventFormat.ctfoRequest(payloads, sentAt: sentAt), deadline: deadline),
            count: payloads.count)
        }
      }
    case .mixpanel:
      let transport = HTTPTransport(endpoint: settings.mixpanelURL)
      let token = settings.mixpanelToken ?? ""
      send = { payloads, _, deadline in
        Self.verdict {
          EventFormat.importVerdict(
            try transport.send(
              EventFormat.mixpanelRequest(payloads, token: token), deadline: deadline),
            count: payloads.count)
        }
      }
    case .ga:
      let transport = HTTPTransport(endpoint: settings.gaURL)
      let id = settings.gaMeasurementID ?? ""
      let secret = settings.gaAPISecret ?? ""
      send = { payloads, sentAt, deadline in
        Self.verdict {
          let client = try outbox.installID()
          return EventFormat.gaVerdict(
            try transport.send(
              EventFormat.gaRequest(
                payloads, measurementID: id, apiSecret: secret, clientID: client, now: sentAt),
              deadline: deadline))
        }
      }
    }
    self.init(
      kind: kind, outbox: outbox, sinks: AnalyticsSinks.configured(configuration), send: send,
      now: now, jitter: jitter)
  }

  private static func verdict(_ body: () throws -> SinkVerdict) -> SinkVerdict {
    do { return try body() } catch {
      return .retry(status: nil, after: nil, reason: "\(error)")
    }
  }

  /// What a flush left.
  public enum Outcome: Sendable, Equatable {
    /// Nothing is queued for the sink.
    case empty
    /// Events wait; come back at this time (ms since the epoch).
    case waiting(until: Int64)
  }

  /// Sends batches until none is left, one fails (the sink then waits), or `deadline`.
  public func flush(deadline: ContinuousClock.Instant) -> Outcome {
    let name = kind.rawValue
    while true {
      let time = now()
      do {
        if let next = try outbox.schedule(of: name).nextAttempt, next > time {
          return .waiting(until: next)
        }
        guard ContinuousClock.now < deadline else { return .waiting(until: time) }
        // In the app, a batch waits for a pause in the user's keys, and so does the checkpoint
        // the last batch's commit left.
        try outbox.pause()
        let size = limit.withLock { $0 }
        let batch = try outbox.batch(for: name, limit: size, bytes: kind.limits.bytes)
        guard !batch.isEmpty else {
          // Events every sink has had that an earlier version left behind.
          try outbox.prune(sinks: sinks)
          return .empty
        }
        switch send(batch.map(\.payload), time, deadline) {
        case .accepted(let refused):
          let dead = refused.sorted { $0.key < $1.key }.map {
            Outbox.DeadLetter(row: batch[$0.key], status: 400, reason: $0.value)
          }
          try outbox.delivered(batch, to: name, dead: dead, at: now(), sinks: sinks)
          limit.withLock { $0 = min($0 * 2, kind.limits.events) }
        case .tooLarge(let status, let reason):
          if batch.count == 1 {
            let letter = Outbox.DeadLetter(row: batch[0], status: status, reason: reason)
            try outbox.delivered(batch, to: name, dead: [letter], at: now(), sinks: sinks)
          } else {
            limit.withLock { $0 = max(1, batch.count / 2) }
          }
        case .retry(_, let after, let reason):
          // The next try is a probe: a network still down then costs a read of a few rows, not
          // of a full batch (an idle app offline stays nearly idle); successes double it back.
          limit.withLock { $0 = min($0, Self.probeBatch) }
          let failures = try outbox.schedule(of: name).failures + 1
          let wait = after.map { Int64($0) * 1000 } ?? Self.backoff(failures: failures) + jitter()
          let next = now() + wait
          try outbox.failed(sink: name, reason: reason, at: now(), nextAttempt: next)
          return .waiting(until: next)
        }
      } catch {
        // The outbox cannot be read or written (a full disk): try again later.
        return .waiting(until: time + Self.backoff(failures: 1))
      }
    }
  }

  /// The most events the first try after a failure sends.
  public static let probeBatch = 25

  /// The wait after `failures` failures in a row, without jitter: 2 s doubling to 60 s.
  public static func backoff(failures: Int64) -> Int64 {
    min(2000 << min(max(failures - 1, 0), 10), 60_000)
  }
}
