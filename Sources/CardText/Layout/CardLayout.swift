/// A card laid out for a text area of a given width and height.
///
///     let layout = CardLayout.layout(title: "Tea", body: "Drink it hot.", width: 8, height: 4)
///     layout.lines      // ["Tea", "", "Drink it", "hot."]
///     layout.truncated  // false
public struct CardLayout: Sendable, Hashable {
  /// The lines to draw, each at most `width` cells wide.
  public var lines: [String]
  /// True when text was cut to fit the height: the last line ends with "…".
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
  public static func layout(title: String?, body: String, width: Int, height: Int) -> CardLayout {
    let whole = height == Int.max
    let titleHeight = whole ? Int.max : min(maximumTitleLines, height)
    let heading = WrappedText.wrap(title ?? "", width: width, maxLines: titleHeight)
    if heading.lines.isEmpty {
      let text = WrappedText.wrap(body, width: width, maxLines: height)
      return CardLayout(lines: text.lines, truncated: heading.truncated || text.truncated)
    }
    let bodyHeight = whole ? Int.max : height - heading.lines.count - 1
    let text = WrappedText.wrap(body, width: width, maxLines: max(bodyHeight, 0))
    if text.lines.isEmpty {
      var lines = heading.lines
      if text.truncated && !heading.truncated, let last = lines.popLast() {
        lines.append(WrappedText.endingWithEllipsis(last, width: width))
      }
      return CardLayout(lines: lines, truncated: heading.truncated || text.truncated)
    }
    let lines = heading.lines + [""] + text.lines
    return CardLayout(lines: lines, truncated: heading.truncated || text.truncated)
  }
}
