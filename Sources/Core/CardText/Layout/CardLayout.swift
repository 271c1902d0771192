/// A card laid out for a text area of a given width and height.
///
///     let layout = CardLayout.layout(title: "Tea", body: "Drink it hot.", width: 8, height: 4)
///     layout.lines      // ["Tea", "", "Drink it", "hot."]
///     layout.truncated  // false
public struct CardLayout: Sendable, Hashable {
  /// The lines to draw, each at most `width` cells wide.
  public var lines: [String]
  /// True when text was cut to fit the height: the last line ends with the truncation mark.
  public var truncated: Bool

  /// The most lines a title takes, unless the whole card is laid out.
  public static let maximumTitleLines = 2

  public init(lines: [String], truncated: Bool) {
    self.lines = lines
    self.truncated = truncated
  }

  /// Lays out a card: the title (wrapped, at most 2 lines), a blank line, the body.
  ///
  /// Title and body must already be sanitised (`Sanitizer.sanitize`).
  /// A `height` of `Int.max` lays out the whole card (the full-card view), title included.
  /// Cut text ends with `mark` (`TruncationMark(environment:)` picks one for the locale).
  public static func layout(
    title: String?, body: String, width: Int, height: Int, mark: TruncationMark = .ellipsis
  ) -> CardLayout {
    let whole = height == Int.max
    let titleHeight = whole ? Int.max : min(maximumTitleLines, height)
    let heading =
      title.map { WrappedText.wrap($0, width: width, maxLines: titleHeight, mark: mark) }
      ?? WrappedText(lines: [], truncated: false)
    guard !heading.lines.isEmpty else {
      let text = WrappedText.wrap(body, width: width, maxLines: height, mark: mark)
      return CardLayout(lines: text.lines, truncated: heading.truncated || text.truncated)
    }
    let bodyHeight = whole ? Int.max : max(height - heading.lines.count - 1, 0)
    let text = WrappedText.wrap(body, width: width, maxLines: bodyHeight, mark: mark)
    var lines = heading.lines
    if !text.lines.isEmpty {
      lines.append("")
      lines.append(contentsOf: text.lines)
    } else if text.truncated && !heading.truncated {
      mark.end(&lines[lines.count - 1], width: width)
    }
    return CardLayout(lines: lines, truncated: heading.truncated || text.truncated)
  }
}
