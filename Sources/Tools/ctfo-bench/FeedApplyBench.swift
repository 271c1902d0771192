import CardText
import FeedCore
import FeedPipeline
import Foundation
import Synchronization

/// `ctfo-bench feed-apply N`: a live change of N new cards (a launch pull), then one of N/4 more
/// (a later pull, which needs more room in the feed's maps), applied to a started feed on this
/// thread as the app's link thread applies them, while a second thread asks the feed for its
/// types again and again, as the UI thread takes the feed's lock to deal: how long each of those
/// calls waited (at most one hold of the lock) and how long the changes took.
enum FeedApplyBench {
  struct Source: CardSource {
    let types: [TypeCount]
    func catalog() async throws -> [TypeCount] { types }
    func fetch(type: String, ordinal: Int) async throws -> Card {
      Card(id: "\(type)-\(ordinal)", type: type, body: "Card \(ordinal) of \(type).")
    }
  }

  static func run(_ arguments: [String]) throws {
    let n = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
    let names = ["fact", "haiku", "joke", "tip", "trivia", "word"]
    let catalog = names.map { TypeCount(type: CardType(name: $0), cards: 200) }
    let cards = (0..<(n + n / 4)).map {
      Card(id: "bench-\($0)", type: names[$0 % names.count], body: "Body of card \($0).")
    }
    var applied: [Duration] = []
    var waits: [Duration] = []
    for _ in 0..<5 {
      let feed = Feed(
        source: Source(types: catalog), catalog: catalog, enabled: Set(names), seed: 7,
        area: TextArea(width: 60, height: 12))
      feed.start()
      let running = Atomic(true)
      let probed = Mutex<[Duration]>([])
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        var local: [Duration] = []
        while running.load(ordering: .relaxed) {
          let start = ContinuousClock.now
          _ = feed.statuses
          local.append(ContinuousClock.now - start)
        }
        probed.withLock { $0 = local }
        done.signal()
      }
      let start = ContinuousClock.now
      feed.apply(LiveCollection.Change(added: Array(cards[..<n])))
      feed.apply(LiveCollection.Change(added: Array(cards[n...])))
      applied.append(ContinuousClock.now - start)
      running.store(false, ordering: .relaxed)
      done.wait()
      waits += probed.withLock { $0 }
    }
    applied.sort()
    waits.sort()
    func ms(_ d: Duration) -> String { String(format: "%.3f ms", d.inMilliseconds) }
    print(
      "live changes of \(n) and \(n / 4) new cards applied to a feed: median \(ms(applied[2]))"
        + " (5 runs)")
    print(
      "meanwhile a call that takes the feed's lock (\(waits.count) calls): median"
        + " \(ms(waits[waits.count / 2])), p99.9 \(ms(waits[waits.count * 999 / 1000])),"
        + " max \(ms(waits[waits.count - 1]))")
  }
}
