import CardText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a long first read of a deck is: "Reading big.jsonl · 34 %" on one line of standard
/// error, redrawn in place, once the read has taken `delay` seconds (a quick one says nothing;
/// a quarter of a second, so that a read over half a second has shown where it is by then),
/// and wiped when it ends. The app syncs its decks before it takes the screen, so this line
/// shows on the terminal where the app then starts; `ctfo next` shows it only when standard
/// error is a terminal (nothing in a pipe or a file).
///
///     var progress = ReadProgress(now: ReadProgress.monotonic, write: ReadProgress.standardError)
///     try index.sync(decks: decks) { path, done, total in progress.update(path, done, total) }
///     progress.finish()
struct ReadProgress {
  /// Seconds a read goes on before its progress shows.
  static let delay = 0.25
  /// The least seconds between two redraws.
  static let interval = 0.1

  private let now: () -> Double
  private let write: (String) -> Void
  private let start: Double
  private var lastDrawn: Double?
  private var lastText = ""

  init(now: @escaping () -> Double, write: @escaping (String) -> Void) {
    self.now = now
    self.write = write
    start = now()
  }

  /// The text for `path` at `done` of `total` bytes: its file name, sanitised, and the share.
  static func text(_ path: String, done: Int64, total: Int64) -> String {
    let name = Sanitizer.sanitizeLine(String(path.split(separator: "/").last ?? Substring(path)))
    let percent = total > 0 ? min(100, Int(done * 100 / total)) : 0
    return "Reading \(name) · \(percent) %"
  }

  mutating func update(_ path: String, _ done: Int64, _ total: Int64) {
    let time = now()
    guard time - start >= Self.delay else { return }
    if let lastDrawn, time - lastDrawn < Self.interval { return }
    let text = Self.text(path, done: done, total: total)
    guard text != lastText else { return }
    lastDrawn = time
    lastText = text
    write("\r" + text + "\u{1B}[K")
  }

  /// Wipes the line, if one was drawn.
  mutating func finish() {
    guard lastDrawn != nil else { return }
    write("\r\u{1B}[K")
    lastDrawn = nil
    lastText = ""
  }

  /// Seconds on the monotonic clock.
  static func monotonic() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Writes to standard error when it is a terminal; nil otherwise (nothing is shown).
  static var standardErrorIfTerminal: ((String) -> Void)? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return { text in
      var bytes = Array(text.utf8)
      _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
  }
}
