import CommandSupport
import Dispatch
import Synchronization
import Testing

/// The server link's thread (issue 29, item 5): its work runs in order, but a pull the user
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
