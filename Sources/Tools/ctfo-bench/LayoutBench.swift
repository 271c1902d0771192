import CardText
import Foundation

/// Layout throughput: a corpus of card bodies, sanitised once, laid out again and again.
///
/// Allocations are counted when `bench/run.sh` preloads its malloc counter
/// (`ctfo_alloc_count`); without it only the throughput is printed.
enum LayoutBench {
  static let usage = "usage: ctfo-bench layout CORPUS [WIDTH HEIGHT]"

  static func run(_ arguments: [String]) throws {
    guard let path = arguments.first else { throw BenchError.usage(usage) }
    let width = arguments.count > 1 ? Int(arguments[1]) ?? 60 : 60
    let height = arguments.count > 2 ? Int(arguments[2]) ?? 12 : 12
    let raw = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    let clock = ContinuousClock()
    var cards: [String] = []
    let sanitising = clock.measure { cards = raw.map(Sanitizer.sanitize) }
    print("corpus: \(cards.count) cards, \(cards.reduce(0) { $0 + $1.utf8.count }) bytes")
    print("sanitise: \(rate(cards.count, sanitising)) cards/s")

    var lines = layOut(cards, width: width, height: height)
    let allocationsBefore = AllocationCounter.count()
    lines += layOut(cards, width: width, height: height)
    let allocationsAfter = AllocationCounter.count()

    var rounds = 0
    let deadline = clock.now.advanced(by: .seconds(2))
    let elapsed = clock.measure {
      while rounds < 3 || clock.now < deadline {
        lines += layOut(cards, width: width, height: height)
        rounds += 1
      }
    }
    print(
      "layout \(width)x\(height): \(rate(cards.count * rounds, elapsed)) cards/s "
        + "(\(rounds) rounds, \(lines) lines)")
    if let before = allocationsBefore, let after = allocationsAfter {
      let perCard = Double(after - before) / Double(cards.count)
      print("allocations: \(String(format: "%.1f", perCard)) per card")
    }
  }

  private static func layOut(_ cards: [String], width: Int, height: Int) -> Int {
    var lines = 0
    for card in cards {
      lines += CardLayout.layout(title: nil, body: card, width: width, height: height).lines.count
    }
    return lines
  }

  private static func rate(_ count: Int, _ duration: Duration) -> Int {
    Int(Double(count) / duration.inSeconds)
  }
}

/// The malloc counter that `bench/run.sh` preloads, found at run time.
enum AllocationCounter {
  private typealias Count = @convention(c) () -> UInt
  private static let function: Count? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0),
    "ctfo_alloc_count"
  ).map { unsafeBitCast($0, to: Count.self) }

  static func count() -> UInt? { function?() }
}

enum BenchError: Error, CustomStringConvertible {
  case usage(String)
  var description: String {
    switch self {
    case .usage(let text): text
    }
  }
}
