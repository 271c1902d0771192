import ArgumentParser
import Testing

import CommandSupport
@testable import ctfo_full

/// `ctfo next`'s quick parser must read exactly what ArgumentParser reads, or leave it.
@Suite struct QuickNextTests {
  /// What ArgumentParser makes of `arguments`: the `next` request, or nil for another
  /// command, help or an error.
  private func parsed(_ arguments: [String]) -> NextRequest? {
    (try? CTFO.parseAsRoot(arguments) as? Next)?.request
  }

  @Test(arguments: [
    ["next"], ["next", "-n", "1"], ["next", "-n", "0", "--json"],
    ["next", "--width", "40", "--height", "9", "-n", "30000", "--json"],
    ["--home", "/tmp/h", "next", "--seed", "3"], ["next", "--home=/tmp/h", "--seed=18446744073709551615"],
    ["--deck", "a.jsonl", "next", "--deck", "b.jsonl", "--deck=c d.jsonl"],
    ["next", "--lookahead", "7", "--undo-limit", "2", "--on-replace", "ask-user", "--on-launch", "ignore"],
    ["next", "--width=5", "--json"],
  ])
  func theEverydayFormsAreReadQuicklyAndAsArgumentParserReadsThem(_ arguments: [String]) throws {
    let quick = try #require(NextRequest(quick: arguments))
    #expect(quick == parsed(arguments))
  }

  @Test(arguments: [
    [], ["--help"], ["next", "--help"], ["next", "-h"], ["types"], ["history", "-n", "3"],
    ["next", "-n", "-1"], ["next", "-n", "x"], ["next", "--width", "0"], ["next", "-n"],
    ["-n", "3", "next"], ["--json", "next"], ["next", "next"], ["next", "--bogus"],
    ["next", "--seed", "-3"], ["next", "--json", "--json"], ["next", "--width", "3", "--width", "4"],
    ["next", "--home="], ["next", "--", "x"], ["next", "extra"], ["--version"],
  ])
  func everythingElseIsLeftToArgumentParser(_ arguments: [String]) {
    #expect(NextRequest(quick: arguments) == nil)
  }

  @Test func onRandomArgumentsTheQuickParserNeverDisagreesWithArgumentParser() {
    let tokens = [
      "next", "next", "-n", "--width", "--height", "--json", "--home", "--deck", "--seed",
      "--lookahead", "--undo-limit", "--on-replace", "--on-launch", "0", "1", "12", "-2", "x",
      "/tmp/h", "d.jsonl", "--width=3", "--seed=9", "--deck=e.jsonl", "--home=", "-h", "types",
      "restore",
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var quickOnes = 0
    for _ in 0..<2_000 {
      var arguments = (0..<next(7)).map { _ in tokens[next(tokens.count)] }
      if next(2) == 0 { arguments.insert("next", at: next(arguments.count + 1)) }
      guard let quick = NextRequest(quick: arguments) else { continue }
      quickOnes += 1
      #expect(quick == parsed(arguments), "\(arguments)")
    }
    #expect(quickOnes > 100, "the random vectors reach the quick parser: \(quickOnes)")
  }
}
