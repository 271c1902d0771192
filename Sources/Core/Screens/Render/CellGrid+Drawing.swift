import App
import CardText

/// Drawing that clips at every edge, for boxes that may hang off the screen (the slide-out)
/// and for screens smaller than their content.
extension CellGrid {
  /// Draws sanitised text from `column` (which may be negative: clusters left of the screen
  /// are skipped), stopping before `limit` (default: the right edge). Returns the column after
  /// the text.
  @discardableResult
  mutating func draw(
    _ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .plain,
    limit: Int? = nil
  ) -> Int {
    let end = Swift.min(limit ?? width, width)
    var col = column
    for cluster in text {
      let w = DisplayWidth.of(cluster)
      if w == 0 { continue }
      if col + w > end { break }
      if col >= 0, row >= 0, row < height {
        self[row, col] = Cell(cluster, style: style)
        for covered in col + 1..<col + w { self[row, covered] = Cell(nil, style: style) }
      }
      col += w
    }
    return col
  }

  /// Draws sanitised text like `draw`, but text that does not fit before `limit` (default: the
  /// right edge) is cut so that `mark` ends it: a cut always shows. The screen's edge still
  /// clips silently a box that hangs off it (the slide-out).
  @discardableResult
  mutating func drawClipped(
    _ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil,
    mark: TruncationMark
  ) -> Int {
    let end = limit ?? width
    return draw(
      mark.clipped(text, width: end - column), row: row, column: column, style: style,
      limit: end)
  }

  /// Draws the app's own text (box lines, arrows, key names): one cell per character, which
  /// holds for everything the app writes itself, whatever width table is in use.
  @discardableResult
  mutating func drawChrome(
    _ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil
  ) -> Int {
    let end = Swift.min(limit ?? width, width)
    var col = column
    for character in text {
      if col >= end { break }
      if col >= 0, row >= 0, row < height { self[row, col] = Cell(character, style: style) }
      col += 1
    }
    return col
  }

  /// For text scrolled to show the lines `range` of `count`: "↑ more", "↓ more" or "↑↓ more"
  /// at the end of the top row, saying which way there is more; nothing when all shows.
  mutating func drawMoreMark(showing range: Range<Int>, of count: Int, style: CellStyle) {
    let more = (range.lowerBound > 0 ? "↑" : "") + (range.upperBound < count ? "↓" : "")
    guard !more.isEmpty else { return }
    let label = more + " more"
    drawChrome(label, row: 0, column: width - 1 - label.count, style: style)
  }

  /// Draws app text centred on a row.
  mutating func drawChromeCentred(_ text: String, row: Int, style: CellStyle = .plain) {
    drawChrome(text, row: row, column: Swift.max((width - text.count) / 2, 0), style: style)
  }

  /// Fills a rectangle that may hang off the screen.
  mutating func clear(row: Int, column: Int, width w: Int, height h: Int) {
    fill(row: row, column: column, width: w, height: h, style: .plain)
  }

  /// Draws a box outline: `label` (sanitised) in the top edge after "┌─ ", ended with `mark`
  /// when it is too long for the edge.
  mutating func drawBox(
    _ frame: BoxFrame, label: String = "", labelStyle: CellStyle = .plain,
    mark: TruncationMark = .ellipsis
  ) {
    let inner = String(repeating: "─", count: Swift.max(frame.width - 2, 0))
    drawChrome("┌" + inner + "┐", row: frame.top, column: frame.left)
    for r in frame.top + 1..<Swift.max(frame.bottom, frame.top + 1) {
      drawChrome("│", row: r, column: frame.left)
      drawChrome("│", row: r, column: frame.right - 1)
    }
    drawChrome("└" + inner + "┘", row: frame.bottom, column: frame.left)
    guard !label.isEmpty, frame.width > 6 else { return }
    let end = drawClipped(
      " " + label, row: frame.top, column: frame.left + 2, style: labelStyle,
      limit: frame.right - 3, mark: mark)
    drawChrome(" ", row: frame.top, column: end, style: labelStyle)
  }
}

extension CellGrid {
  /// Draws the rows of a list that the viewport shows, from row `top`, at most `rows` of them,
  /// the selected one on a highlighted line; `drawRow` draws entry `index` on `row`.
  mutating func drawList(
    _ viewport: ListViewport, count: Int, top: Int, rows: Int, highlight: CellStyle,
    drawRow: (inout CellGrid, _ index: Int, _ row: Int, _ selected: Bool) -> Void
  ) {
    for index in viewport.top..<min(viewport.top + rows, count) {
      let row = top + index - viewport.top
      let selected = index == viewport.selection
      if selected { fill(row: row, column: 0, width: width, height: 1, style: highlight) }
      drawRow(&self, index, row, selected)
    }
  }
}
