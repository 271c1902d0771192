import CFuzzDriver  // Its `main`, for a build without libFuzzer.

#if canImport(Glibc)
  import Glibc
#endif

/// The harnesses, one per input format; `CTFO_FUZZ` names the one a run uses:
///
///     CTFO_FUZZ=decks .build/fuzz/debug/ctfo-fuzz -max_total_time=60 Tests/Fuzz/Corpus/decks
enum Harness: String {
  case decks, text, config, keys, mouse, answers, pulls, sessions
  case deadlines

  /// Runs the harness on one input; a broken invariant traps.
  func run(_ bytes: UnsafeRawBufferPointer) {
    switch self {
    case .decks: DeckHarness.run(bytes)
    case .text: TextHarness.run(bytes)
    case .config: ConfigHarness.run(bytes)
    case .keys: KeyHarness.run(bytes)
    case .mouse: MouseHarness.run(bytes)
    case .answers: AnswerHarness.run(bytes)
    case .pulls: PullHarness.run(bytes)
    case .sessions: SessionHarness.run(bytes)
    case .deadlines: DeadlineHarness.run(bytes)
    }
  }
}

/// The harness `CTFO_FUZZ` names, read once; the run stops when it names none.
let chosen: Harness = {
  guard let name = getenv("CTFO_FUZZ").map({ String(cString: $0) }),
    let harness = Harness(rawValue: name)
  else {
    var message =
      "ctfo-fuzz: set CTFO_FUZZ to decks, text, config, keys, mouse, answers, pulls, sessions or "
      + "deadlines\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
  }
  return harness
}()

/// libFuzzer's entry: one input to the chosen harness.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafeRawPointer?, _ size: Int) -> Int32 {
  chosen.run(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}
