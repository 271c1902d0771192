/// A card laid out for a text area of a given width and height.
public struct CardLayout: Sendable, Hashable {
  /// The lines to draw, each at most `width` cells wide.
  public var lines: [String]
  /// True when text was cut to fit the height: the last line ends with "…".
  public var truncated: Bool

  public init(lines: [String], truncated: Bool) {
    self.lines = lines
    self.truncated = truncated
  }

  /// Lays out a card: the title (wrapped, at most 2 lines), a blank line, the body.
  ///
  /// Title and body must already be sanitised (`Sanitizer.sanitize`).
  /// A `height` of `Int.max` lays out the whole card (the full-card view).
  public static func layout(title: String?, body: String, width: Int, height: Int) -> CardLayout {
    // Placeholder until the CardText issue lands: naive, ASCII-only.
    var lines: [String] = []
    if let title, !title.isEmpty { lines.append(String(title.prefix(width))); lines.append("") }
    var line = ""
    for word in body.split(separator: " ") {
      if line.isEmpty { line = String(word.prefix(width)) } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word.prefix(width))
      }
    }
    if !line.isEmpty { lines.append(line) }
    let truncated = lines.count > height
    if truncated { lines = Array(lines.prefix(max(height, 0))) }
    return CardLayout(lines: lines, truncated: truncated)
  }
}
