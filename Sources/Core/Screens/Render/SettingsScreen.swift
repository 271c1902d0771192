import App
import CardText
import FeedCore

/// The settings screen: every type with a checkbox, its label, its number of cards and whether
/// it is failing; then the number of problems found in the decks.
public enum SettingsScreen {
  static let listTop = Geometry.listTop
  /// The widest type label column.
  static let maxLabelWidth = 24

  static func draw(
    _ panel: SettingsPanel, mark: TruncationMark, into grid: inout CellGrid, palette: Palette
  ) {
    grid.drawChrome("Settings: the card types to show", row: 0, column: 1, style: palette.title)
    let labels = panel.statuses.map { Untrusted.line($0.type.label) }
    let labelWidth = min(labels.map { DisplayWidth.of($0) }.max() ?? 0, maxLabelWidth)
    grid.drawList(
      panel.viewport, count: panel.statuses.count, top: listTop,
      rows: Geometry.settingsRows(height: grid.height), highlight: palette.selected
    ) { grid, index, row, selected in
      drawStatus(
        panel.statuses[index], label: labels[index], labelWidth: labelWidth, row: row,
        selected: selected, mark: mark, into: &grid, palette: palette)
    }
    drawProblems(panel.problems, row: grid.height - 2, mark: mark, into: &grid, palette: palette)
  }

  private static func drawStatus(
    _ status: TypeStatus, label: String, labelWidth: Int, row: Int, selected: Bool,
    mark: TruncationMark, into grid: inout CellGrid, palette: Palette
  ) {
    let base = selected ? palette.selected : CellStyle.plain
    grid.drawChrome(status.enabled ? "[x]" : "[ ]", row: row, column: 1, style: base)
    var labelStyle = palette.label(status.type.colour)
    labelStyle.reverse = labelStyle.reverse != selected
    grid.drawClipped(
      label, row: row, column: 5, style: labelStyle, limit: 5 + labelWidth, mark: mark)
    let count = Plural.count(status.cards, "card")
    let end = grid.drawChrome(count, row: row, column: 5 + labelWidth + 2, style: base)
    guard status.failing else { return }
    var warning = palette.warning
    warning.reverse = warning.reverse != selected
    grid.drawChrome("failing", row: row, column: end + 2, style: warning)
  }

  private static func drawProblems(
    _ problems: [String], row: Int, mark: TruncationMark, into grid: inout CellGrid,
    palette: Palette
  ) {
    guard let first = problems.first else {
      grid.drawChrome("No deck problems", row: row, column: 1, style: palette.quiet)
      return
    }
    let count = Plural.count(problems.count, "deck problem") + ": "
    let end = grid.drawChrome(count, row: row, column: 1, style: palette.warning)
    grid.drawClipped(
      Untrusted.line(first), row: row, column: end, style: palette.quiet, limit: grid.width - 1,
      mark: mark)
  }
}
