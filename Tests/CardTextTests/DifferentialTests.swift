import Foundation
import Glibc
import Testing

@testable import CardText

/// Sanitised clusters measured by the two outside authorities: Python's `wcwidth.width` (what a
/// grapheme-aware terminal draws) and the C library's `wcswidth` in a UTF-8 locale (what ncurses
/// counts). Both must equal `DisplayWidth`, for a corpus that covers every range of the tables.
///
/// Without python3 and its wcwidth (`scripts/install-deps.sh` installs them) the test fails,
/// unless `CTFO_SKIP_PYTHON_WIDTH=1` says to skip the Python half.
@Suite struct DifferentialTests {
  @Test func everyRangeOfTheTablesAgreesWithPythonAndTheCLibrary() throws {
    let clusters = Self.corpus().flatMap { Array(Sanitizer.sanitize($0)) }
      .filter { $0 != "\n" && $0 != "\t" }
    let unique = Array(Set(clusters.map { String($0) })).sorted()
    #expect(unique.count > 2000)
    let c = try #require(CLibraryWidth())
    for cluster in unique {
      #expect(c.width(of: cluster) == DisplayWidth.of(cluster), "\(scalars(cluster)) vs glibc")
    }
    guard let python = try PythonWidth.widths(of: unique) else {
      guard ProcessInfo.processInfo.environment["CTFO_SKIP_PYTHON_WIDTH"] == "1" else {
        let hint = "run scripts/install-deps.sh, or skip with CTFO_SKIP_PYTHON_WIDTH=1"
        Issue.record("python3 with wcwidth is missing: \(hint)")
        return
      }
      print("DifferentialTests: CTFO_SKIP_PYTHON_WIDTH=1: Python comparison skipped")
      return
    }
    for (cluster, width) in zip(unique, python) {
      #expect(width == DisplayWidth.of(cluster), "\(scalars(cluster)) vs wcwidth.width")
    }
  }

  /// The first, a middle and the last code point of every run of equal table entries, alone,
  /// after a base letter and after an emoji; and the sequences terminals disagree on.
  static func corpus() -> [String] {
    var starts: [UInt32] = []
    var previous: UInt32?
    for value: UInt32 in 0...0x10FFFF where Unicode.Scalar(value) != nil {
      let key = ScalarProperties(value).key
      if key != previous { starts.append(value) }
      previous = key
    }
    var picks: Set<UInt32> = []
    for (start, next) in zip(starts, starts.dropFirst() + [0x110000]) {
      let last = next - 1
      picks.formUnion(
        [start, start + (last - start) / 2, last].filter { !(0xD800...0xDFFF).contains($0) })
    }
    var texts: [String] = []
    for value in picks.sorted() {
      let scalar = String(Unicode.Scalar(value)!)
      texts += [scalar, "a" + scalar, "क" + scalar, "👍" + scalar, "❤" + scalar]
    }
    return texts + sequences
  }

  static let sequences = [
    "👨\u{200D}👩\u{200D}👧", "👍🏽", "✌🏽", "❤\u{FE0F}", "❤\u{FE0E}", "👍\u{FE0E}", "1\u{FE0F}\u{20E3}",
    "🇫🇷", "🇫", "🇫🇷🇫", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "क्षि", "स्त्र",
    "काा", "क्\u{200D}ष", "각", "\u{1100}\u{1161}\u{11A8}", "e\u{301}\u{302}\u{303}\u{304}\u{305}",
    "\u{0E01}\u{0E33}", "ña", "©\u{FE0F}", "🏳\u{FE0F}\u{200D}🌈", "👩🏽\u{200D}💻",
  ]

  private func scalars(_ cluster: String) -> String {
    cluster.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(
      separator: " ")
  }
}

extension ScalarProperties {
  /// The table entry, for finding the runs of equal entries.
  var key: UInt32 {
    UInt32(terminalWidth) | UInt32(cursesWidth ?? 3) << 2 | (isRemoved ? 16 : 0)
      | (isMark ? 32 : 0) | (isSpacingMark ? 64 : 0) | (isConsonant ? 128 : 0)
      | (widensWithVS16 ? 256 : 0) | (isPictographic ? 512 : 0) | (extendsCluster ? 1024 : 0)
  }
}

/// The C library's `wcswidth` under the C.UTF-8 locale, set for this thread only; the locale
/// is freed with it (LeakSanitizer, `make sanitize`).
final class CLibraryWidth {
  /// `wcswidth`, which Glibc's Swift module does not import (it is an X/Open extension).
  private typealias WcsWidth = @convention(c) (UnsafePointer<wchar_t>, Int) -> Int32
  private let locale: locale_t
  private let wcswidth: WcsWidth

  init?() {
    guard let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil),
      let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcswidth")
    else { return nil }
    self.locale = locale
    wcswidth = unsafeBitCast(symbol, to: WcsWidth.self)
  }

  deinit {
    freelocale(locale)
  }

  func width(of text: String) -> Int {
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    let wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
    return Int(wcswidth(wide, wide.count))
  }
}

/// Python's `wcwidth.width` of many strings in one `python3` run.
enum PythonWidth {
  static let script = """
    import json, sys, wcwidth
    print(json.dumps([wcwidth.width(s) for s in json.load(sys.stdin)]))
    """

  /// The widths, or nil when python3 or its wcwidth module is missing.
  static func widths(of texts: [String]) throws -> [Int]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let json = try JSONEncoder().encode(texts)
    input.fileHandleForWriting.write(json)
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return try JSONDecoder().decode([Int].self, from: data)
  }
}
