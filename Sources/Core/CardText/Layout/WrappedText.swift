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
  /// True when text was cut to fit `maxLines`: the last line then ends with the mark.
  public var truncated: Bool

  public init(lines: [String], truncated: Bool) {
    self.lines = lines
    self.truncated = truncated
  }

  /// Wraps `text` greedily to `width` cells, keeping at most `maxLines` lines; cut text ends
  /// with `mark`.
  public static func wrap(
    _ text: String, width: Int, maxLines: Int, mark: TruncationMark = .ellipsis
  ) -> WrappedText {
    guard width > 0, maxLines > 0 else {
      return WrappedText(lines: [], truncated: DisplayWidth.of(text) > 0)
    }
    var text = text
    if let wrapped = wrap(contiguous: text, width: width, maxLines: maxLines, mark: mark) {
      return wrapped
    }
    text.makeContiguousUTF8()
    return wrap(contiguous: text, width: width, maxLines: maxLines, mark: mark)!
  }

  private static func wrap(
    contiguous text: String, width: Int, maxLines: Int, mark: TruncationMark
  ) -> WrappedText? {
    text.utf8.withContiguousStorageIfAvailable { bytes in
      var breaker = LineBreaker(text: text, bytes: bytes, width: width, maxLines: maxLines)
      breaker.run()
      var lines = breaker.lines
      if breaker.truncated && !lines.isEmpty {
        mark.end(&lines[lines.count - 1], width: width)
      }
      return WrappedText(lines: lines, truncated: breaker.truncated)
    }
  }
}
