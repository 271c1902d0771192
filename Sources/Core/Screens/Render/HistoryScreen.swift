import App
import CardText
import FeedCore

/// The history view: one line per card shown, newest first (type label, title, reaction).
public enum HistoryScreen {
  /// The first row of the list, under the heading.
  static let listTop = Geometry.listTop
  /// The widest type label column.
  static let maxLabelWidth = 14

  static func draw(
    _ browser: HistoryBrowser, types: [String: CardType], mark: TruncationMark,
    into grid: inout CellGrid, palette: Palette
  ) {
    grid.drawClipped(
      heading(browser), row: 0, column: 1, style: palette.title, limit: grid.width - 1,
      mark: mark)
    guard !browser.entries.isEmpty else {
      let empty =
        browser.search != nil
        ? "No card holds this text" : browser.filter == .all ? "No cards yet" : "No such card yet"
      grid.drawChrome(empty, row: listTop, column: 1, style: palette.quiet)
      return
    }
    let labels = browser.entries.map { Untrusted.line(types[$0.type]?.label ?? $0.type) }
    let labelWidth = min(labels.map { DisplayWidth.of($0) }.max() ?? 0, maxLabelWidth)
    grid.drawList(
      browser.viewport, count: browser.entries.count, top: listTop,
      rows: Geometry.historyRows(height: grid.height), highlight: palette.selected
    ) { grid, index, row, selected in
      drawEntry(
        browser.entries[index], label: labels[index], labelWidth: labelWidth, row: row,
        selected: selected, types: types, mark: mark, into: &grid, palette: palette)
    }
  }

  /// The top row: how many cards the history holds, or what a search found.
  static func heading(_ browser: HistoryBrowser) -> String {
    let found = Plural.count(browser.entries.count, "card")
    switch (browser.search, browser.filter) {
    case (nil, .all): return "History (\(Plural.count(browser.total, "card")), newest first)"
    case (nil, let filter): return "History: \(found), \(filter.label), newest first"
    case (let search?, .all):
      return "History: \(found) with “\(Untrusted.line(search))”, newest first"
    case (let search?, let filter):
      return "History: \(found) with “\(Untrusted.line(search))”, \(filter.label), newest first"
    }
  }

  private static func drawEntry(
    _ entry: HistoryEntry, label: String, labelWidth: Int, row: Int, selected: Bool,
    types: [String: CardType], mark: TruncationMark, into grid: inout CellGrid,
    palette: Palette
  ) {
    let base = selected ? palette.selected : CellStyle.plain
    var labelStyle = palette.label(types[entry.type]?.colour)
    labelStyle.reverse = labelStyle.reverse != selected
    grid.drawClipped(
      label, row: row, column: 1, style: labelStyle, limit: 1 + labelWidth, mark: mark)
    let reaction = entry.reaction?.rawValue ?? ""
    let reactionColumn = grid.width - 1 - 4
    grid.drawChrome(reaction, row: row, column: reactionColumn, style: base)
    let title = Untrusted.line(entry.title ?? entry.cardID)
    grid.drawClipped(
      title, row: row, column: labelWidth + 3, style: base, limit: reactionColumn - 1, mark: mark)
  }
}
