import Foundation
import Testing

@testable import YieldToUser

/// Background work yields to the user: a background thread's unit of work waits for a pause in
/// the keys, at most `longest`; the UI thread and commands never wait.
@Suite(.serialized) struct CourtesyTests {
  /// Runs `body` on a new thread made a background one, and gives its result.
  private func onBackgroundThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { done in
      let thread = Thread {
        Courtesy.becomeBackground()
        done.resume(returning: body())
      }
      thread.start()
    }
  }

  @Test func aThreadThatIsNotBackgroundNeverWaits() async {
    Courtesy.userActed()
    #expect(!Courtesy.isBackground)
    #expect(Courtesy.pause(quiet: .seconds(10), longest: .seconds(10)) == .zero)
  }

  @Test func aBackgroundUnitWaitsUntilTheKeysPause() async {
    let waited = await onBackgroundThread {
      Courtesy.userActed()
      return Courtesy.pause(quiet: .milliseconds(80), longest: .seconds(10))
    }
    #expect(waited >= .milliseconds(70) && waited < .seconds(5), "\(waited)")
  }

  @Test func aBackgroundUnitGoesAtOnceWhenNoKeyCameLately() async {
    let waited = await onBackgroundThread {
      Courtesy.userActed()
      return Courtesy.pause(quiet: .zero, longest: .seconds(10))
    }
    #expect(waited < .milliseconds(50), "\(waited)")
  }

  @Test func keysThatNeverPauseHoldAUnitBackAtMostTheLongest() async {
    let keys = Thread {
      for _ in 0..<40 {
        Courtesy.userActed()
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
    keys.start()
    let waited = await onBackgroundThread {
      Courtesy.pause(quiet: .seconds(10), longest: .milliseconds(100))
    }
    #expect(waited >= .milliseconds(90) && waited < .seconds(5), "\(waited)")
  }
}
