/// Sanitised text wrapped to a width and cut to a number of lines.
///
///     let wrapped = WrappedText.wrap("the quick brown fox", width: 10, maxLines: 1)
///     wrapped.lines      // ["the quick…"]
///     wrapped.truncated  // true
///
/// Lines break at spaces and tabs; a word is broken only when it alone is wider than the line,
/// and then between grapheme clusters; a wide character never straddles the edge (at width 1,
/// where it cannot fit, it is drawn as U+FFFD). LF starts a paragraph, TAB expands to the next
/// multiple of 8 columns, trailing blanks and newlines are dropped.
public struct WrappedText: Sendable, Hashable {
  /// The lines, none wider than the width.
  public var lines: [String]
  /// True when text was cut to fit `maxLines`: the last line then ends with "…".
  public var truncated: Bool

  public init(lines: [String], truncated: Bool) {
    self.lines = lines
    self.truncated = truncated
  }

  /// The ellipsis that ends the last line of cut text.
  public static let ellipsis: Character = "…"

  /// Wraps `text` greedily to `width` cells, keeping at most `maxLines` lines.
  public static func wrap(_ text: String, width: Int, maxLines: Int) -> WrappedText {
    guard width > 0, maxLines > 0 else {
      return WrappedText(lines: [], truncated: DisplayWidth.of(text) > 0)
    }
    var text = text
    if let wrapped = wrap(contiguous: text, width: width, maxLines: maxLines) { return wrapped }
    text.makeContiguousUTF8()
    return wrap(contiguous: text, width: width, maxLines: maxLines)!
  }

  private static func wrap(contiguous text: String, width: Int, maxLines: Int) -> WrappedText? {
    text.utf8.withContiguousStorageIfAvailable { bytes in
      var breaker = LineBreaker(text: text, bytes: bytes, width: width, maxLines: maxLines)
      breaker.run()
      var lines = breaker.lines.map { breaker.string(of: $0) }
      if breaker.truncated, let last = lines.popLast() {
        lines.append(endingWithEllipsis(last, width: width))
      }
      return WrappedText(lines: lines, truncated: breaker.truncated)
    }
  }

  /// The line with clusters taken off its end until "…" fits after it, and then "…".
  static func endingWithEllipsis(_ line: String, width: Int) -> String {
    var line = line
    var lineWidth = DisplayWidth.of(line)
    while lineWidth + 1 > width, let last = line.popLast() { lineWidth -= DisplayWidth.of(last) }
    while line.last == " " { line.removeLast() }
    line.append(ellipsis)
    return line
  }
}
