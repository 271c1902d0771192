import Dispatch
import Foundation
import Testing

@testable import Store

/// The app's UI thread reads on a connection of its own (`reserveReader`): a long read of
/// another thread (an analytics batch of 2,000 events) never holds up a key.
@Suite(.timeLimit(.minutes(1))) struct ReaderThreadTests {
  @Test func theReservedThreadsReadsNeverWaitBehindAnotherThreadsRead() async throws {
    let home = try TestHome()
    let database = home.database
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let answered = DispatchSemaphore(value: 0)
    let reserved = DispatchSemaphore(value: 0)
    // The UI thread: reserves the reader, waits until another thread holds a read, reads.
    Thread.detachNewThread {
      database.reserveReader()
      reserved.signal()
      holding.wait()
      // With one reader for every thread, this read would wait for `release`, which is given
      // only after it answers: `answered` would never come.
      _ = try? database.dataVersion()
      answered.signal()
    }
    reserved.wait()
    Thread.detachNewThread {
      _ = try? database.read { _ in
        holding.signal()
        release.wait()
      }
    }
    let result = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: answered.wait(timeout: .now() + 10))
      }
    }
    release.signal()
    #expect(result == .success, "the reserved thread's read waited behind the other's")
  }
}
