import CTFOProgram
import CTFOWire
import FeedCore
import Foundation
import HTTP
import Store

/// `ctfo-bench analytics URL DATABASE N [queue-only]`: the analytics figures of `make bench`;
/// `queue-only` leaves the events queued (for the app to send at its launch).
///
/// 1. Events recorded per second as the app records them: a final reaction and a focus in the
///    transaction of each swipe's state change (`synchronous = FULL`), 2,000 swipes.
/// 2. N events queued at once, then flushed to the CTFO server at URL: the time, the requests
///    (the server counts them), events per second and the growth of the peak RSS.
enum AnalyticsBench {
  static func run(_ arguments: [String]) throws {
    guard (4...5).contains(arguments.count), let count = Int(arguments[3]), count > 0 else {
      throw BenchError.usage("usage: ctfo-bench analytics SERVER-URL DATABASE N [queue-only]")
    }
    let endpoint = try Endpoint(parsing: arguments[1])
    let database = try StateDatabase(path: arguments[2])
    let state = StateStore(database: database, analytics: AnalyticsSinks.context)
    let outbox = Outbox(database: database)
    let now = Date().timeIntervalSince1970

    let swipes = 2000
    let clock = ContinuousClock()
    let recording = try clock.measure {
      for i in 0..<swipes {
        let tombstone = Tombstone(historyIndex: i, cardID: "c\(i)", type: "fact", direction: .right)
        try state.apply(
          StateChange(
            effects: [.commit(tombstone)],
            events: [.focus(cardID: "c\(i)", type: "fact", milliseconds: 900)], time: now))
      }
    }
    let recorded = try outbox.status(of: "ctfo").queued
    print(
      "recorded as the app does (a swipe's events in its transaction, synchronous=FULL): "
        + "\(recorded) events in \(format(recording)) = "
        + "\(Int(Double(recorded) / recording.inSeconds)) events/s")

    // In chunks, so that the bench's own events do not set the peak the flush is measured by.
    let queueing = try clock.measure {
      var left = max(count - recorded, 0)
      while left > 0 {
        let chunk = min(left, 5000)
        let events = (0..<chunk).map {
          AnalyticsEvent.focus(cardID: "c\($0)", type: "fact", milliseconds: Int64($0 % 5000))
        }
        try outbox.record(events, at: now, context: AnalyticsSinks.context)
        left -= chunk
      }
    }
    let queued = try outbox.status(of: "ctfo").queued
    print("queued at once: \(queued) events in \(format(queueing))")
    guard arguments.count == 4 else { return }

    var configuration = Configuration()
    configuration.server = endpoint
    let pull = ServerPull(configuration: configuration, database: database)
    let delivery = SinkDelivery(
      kind: .ctfo, configuration: configuration, database: database, pull: pull)
    let before = peakRSS()
    var outcome = SinkDelivery.Outcome.empty
    let flushing = clock.measure { outcome = delivery.flush(deadline: .now + .seconds(600)) }
    let status = try outbox.status(of: "ctfo")
    print(
      "flushed to the CTFO server on loopback: \(status.delivered) events in \(format(flushing)) = "
        + "\(Int(Double(status.delivered) / flushing.inSeconds)) events/s, \(outcome), "
        + "left \(status.queued), peak RSS +\((peakRSS() - before) / 1024) MB (goal < 30 MB)")
  }

  private static func format(_ d: Duration) -> String { String(format: "%.2f s", d.inSeconds) }

  /// The peak resident set size so far, in KB.
  private static func peakRSS() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
  }
}
