import CTFOProgram
import Dispatch
import Synchronization
import Testing

/// The server link's thread: its work runs in order, but a pull the user
/// asked for goes before all the work waiting (card bodies, the timer's pull).
@Suite struct BackgroundThreadTests {
  @Test func workGivenFirstRunsBeforeTheWorkWaiting() {
    let thread = BackgroundThread(niceness: 0)
    let held = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let order = Mutex<[String]>([])
    thread.async { held.wait() }
    for name in ["body 1", "body 2"] {
      thread.async {
        order.withLock { $0.append(name) }
        done.signal()
      }
    }
    thread.async(first: true) {
      order.withLock { $0.append("pull") }
      done.signal()
    }
    held.signal()
    for _ in 0..<3 { #expect(done.wait(timeout: .now() + 20) == .success) }
    #expect(order.withLock { $0 } == ["pull", "body 1", "body 2"])
  }
}

/// The app's requests to the server: the link's pulls never wait for an
/// analytics batch, and a batch waits until no pull is in flight.
@Suite struct ServerTrafficTests {
  @Test func theLinkNeverWaitsAndABatchWaitsForTheLink() {
    let waiting = DispatchSemaphore(value: 0)
    let traffic = ServerTraffic(waits: { waiting.signal() })
    let order = Mutex<[String]>([])
    let batchSending = DispatchSemaphore(value: 0)
    let batchMayEnd = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      traffic.background {
        order.withLock { $0.append("batch") }
        batchSending.signal()
        batchMayEnd.wait()
      }
      done.signal()
    }
    #expect(batchSending.wait(timeout: .now() + 20) == .success)
    // A batch the server holds: the pull goes beside it, at once.
    traffic.link { order.withLock { $0.append("pull") } }
    batchMayEnd.signal()
    #expect(done.wait(timeout: .now() + 20) == .success)

    let pullMayEnd = DispatchSemaphore(value: 0)
    let pullSending = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      traffic.link {
        pullSending.signal()
        pullMayEnd.wait()
        order.withLock { $0.append("held pull") }
      }
    }
    #expect(pullSending.wait(timeout: .now() + 20) == .success)
    DispatchQueue.global().async {
      traffic.background { order.withLock { $0.append("next batch") } }
      done.signal()
    }
    #expect(waiting.wait(timeout: .now() + 20) == .success)
    pullMayEnd.signal()
    #expect(done.wait(timeout: .now() + 20) == .success)
    #expect(order.withLock { $0 } == ["batch", "pull", "held pull", "next batch"])
  }
}
