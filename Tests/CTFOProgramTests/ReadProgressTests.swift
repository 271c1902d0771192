import Synchronization
import Testing

@testable import CTFOProgram

/// The line a long deck read draws on standard error, on an injected clock.
@Suite struct ReadProgressTests {
  final class Clock: Sendable {
    let time = Mutex(100.0)
    let written = Mutex<[String]>([])
    func now() -> Double { time.withLock { $0 } }
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
  }

  @Test func aQuickReadSaysNothingAndALongOneSaysWhereItIsThenWipesItsLine() {
    let clock = Clock()
    var progress = ReadProgress(now: clock.now) { text in clock.written.withLock { $0.append(text) }
    }
    progress.update("/home/a/big.jsonl", 10, 100)
    clock.advance(0.2)
    progress.update("/home/a/big.jsonl", 20, 100)
    #expect(clock.written.withLock { $0 }.isEmpty)
    clock.advance(0.1)
    progress.update("/home/a/big.jsonl", 34, 100)
    // Within the redraw interval, nothing new; after it, the new share.
    clock.advance(0.05)
    progress.update("/home/a/big.jsonl", 40, 100)
    clock.advance(0.1)
    progress.update("/home/a/big.jsonl", 50, 100)
    progress.finish()
    #expect(
      clock.written.withLock { $0 } == [
        "\rReading big.jsonl · 34 %\u{1B}[K", "\rReading big.jsonl · 50 %\u{1B}[K", "\r\u{1B}[K",
      ])
  }

  @Test func aQuickReadLeavesNoLineToWipe() {
    let clock = Clock()
    var progress = ReadProgress(now: clock.now) { text in clock.written.withLock { $0.append(text) }
    }
    progress.update("a.jsonl", 1, 2)
    progress.finish()
    #expect(clock.written.withLock { $0 }.isEmpty)
  }

  @Test func theFileNameIsSanitised() {
    #expect(
      ReadProgress.text("/x/evil\u{1B}[2J.jsonl", done: 5, total: 0)
        == "Reading evil[2J.jsonl · 0 %")
    #expect(ReadProgress.text("deck", done: 7, total: 7) == "Reading deck · 100 %")
  }
}
