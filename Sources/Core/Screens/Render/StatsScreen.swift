import App
import CardText
import FeedCore

/// The reader's stats as charts: swipes a day for the last 14 days, each type's reactions
/// stacked (CTFO, TFU, TIFB) with their counts, its liked rate and its round, most liked
/// first, and the streak. `ctfo stats` prints every row; the app's screen scrolls them.
///
/// Block characters draw the bars in eighths; with `ascii` (`--ascii`, `CTFO_ASCII=1`, or a
/// locale where they may be drawn two cells wide, as the truncation mark decides) the bars are
/// whole rows of `#`, and the stacks `#`, `+` and `.`.
public enum StatsScreen {
  static let chartRows = Geometry.statsChartRows
  static let oneRowWidth = Geometry.statsOneRowWidth
  /// The widest type label column.
  static let maxLabelWidth = 14

  /// Every row of the stats drawn `width` columns wide (at least 20), as `ctfo stats` prints
  /// them; in ASCII with `ascii` or where `mark` is ASCII.
  public static func render(
    _ stats: ReadingStats, width: Int, ascii: Bool, mark: TruncationMark, colour: Bool
  ) -> CellGrid {
    let width = max(width, Geometry.minimumWidth)
    var grid = CellGrid(width: width, height: Geometry.statsRows(stats, width: width))
    draw(
      stats, ascii: ascii || mark == .ascii, mark: mark, into: &grid,
      palette: Palette(colour: colour))
    return grid
  }

  /// The app's screen: the heading, then the rows from `scroll`; the heading's end says which
  /// way there is more, as the help does.
  static func draw(
    _ view: StatsView, ascii: Bool, mark: TruncationMark, into grid: inout CellGrid,
    palette: Palette
  ) {
    grid.drawChrome("Your reading", row: 0, column: 1, style: palette.title)
    let all = render(
      view.stats, width: grid.width, ascii: ascii, mark: mark, colour: palette.colour)
    let rows = Geometry.fullCardRows(height: grid.height)
    let range = view.scroll..<min(view.scroll + rows, all.height)
    for source in range {
      let row = Geometry.listTop + source - view.scroll
      for column in 0..<grid.width { grid[row, column] = all[source, column] }
    }
    grid.drawMoreMark(showing: range, of: all.height, style: palette.quiet)
  }

  private static func draw(
    _ stats: ReadingStats, ascii: Bool, mark: TruncationMark, into grid: inout CellGrid,
    palette: Palette
  ) {
    guard stats.shown > 0 else {
      grid.drawChrome(
        "Nothing yet: swipe a few cards, then look again.", row: 0, column: 1,
        style: palette.quiet)
      return
    }
    grid.drawChrome(summary(stats), row: 0, column: 1, style: palette.title)
    grid.drawChrome(streak(stats), row: 1, column: 1)
    var row = 3
    drawDays(stats, ascii: ascii, row: &row, into: &grid, palette: palette)
    row += 1
    drawTypes(stats, ascii: ascii, mark: mark, row: row, into: &grid, palette: palette)
  }

  /// The stats as plain sentences, a line each, for `--linear` and screen readers: no chart.
  public static func plainLines(_ stats: ReadingStats) -> [String] {
    guard stats.shown > 0 else { return ["Stats: nothing yet."] }
    let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let days = stats.days.map {
      "\(names[$0.weekday]) \($0.date): \(Plural.count($0.swipes, "swipe"))"
    }
    let types = Geometry.statsTypes(stats).map { type in
      let liked = type.likedPercent.map { ", liked \($0)%" } ?? ""
      let round = type.cards > 0 ? ", \(type.roundSeen) of \(type.cards) this round" : ""
      return "\(Untrusted.line(type.label)): \(type.ctfo) CTFO, \(type.tfu) TFU, \(type.tifb) TIFB"
        + liked + round
    }
    return [
      "Stats: \(summary(stats)).", streak(stats) + ".",
      "Swipes a day, the last \(ReadingStats.dayCount) days:",
    ] + days + ["By type, the most liked first:"] + types
  }

  /// "6 swipes of 8 cards shown".
  static func summary(_ stats: ReadingStats) -> String {
    "\(Plural.count(stats.swipes, "swipe")) of \(Plural.count(stats.shown, "card")) shown"
  }

  /// The streak in words.
  static func streak(_ stats: ReadingStats) -> String {
    stats.streak == 0
      ? "No swipe today or yesterday"
      : "\(Plural.count(stats.streak, "day")) in a row with a swipe"
  }

  // MARK: Swipes a day

  /// The eighths of a cell, from empty to full.
  private static let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  private static let weekdays: [Character] = ["S", "M", "T", "W", "T", "F", "S"]

  private static func drawDays(
    _ stats: ReadingStats, ascii: Bool, row: inout Int, into grid: inout CellGrid,
    palette: Palette
  ) {
    let most = stats.busiestDay
    grid.drawChrome(
      "Swipes a day, the last \(ReadingStats.dayCount) days", row: row, column: 1,
      style: palette.title)
    row += 2
    let axis = "\(most)".count + 1
    let step = grid.width >= 1 + axis + 1 + 3 * stats.days.count ? 3 : 2
    let left = 1 + axis + 1
    grid.drawChrome(
      "\(most)", row: row, column: 1 + axis - 1 - "\(most)".count, style: palette.quiet)
    grid.drawChrome("0", row: row + chartRows - 1, column: 1 + axis - 2, style: palette.quiet)
    for (i, day) in stats.days.enumerated() {
      let column = left + i * step
      for r in 0..<chartRows {
        let cell = barCell(day.swipes, most: most, row: chartRows - 1 - r, ascii: ascii)
        grid.drawChrome(
          String(repeating: cell, count: step - 1), row: row + r, column: column,
          style: palette.bar)
      }
      grid.drawChrome(
        String(weekdays[day.weekday]), row: row + chartRows, column: column, style: palette.quiet)
    }
    let first = stats.days.first?.date ?? ""
    let last = "today"
    grid.drawChrome(first, row: row + chartRows + 1, column: left, style: palette.quiet)
    let end = left + (stats.days.count - 1) * step + step - 1
    grid.drawChrome(last, row: row + chartRows + 1, column: end - last.count, style: palette.quiet)
    row += chartRows + 2
  }

  /// The cell of a day's bar `level` rows up from the bottom: eighths of a cell, the top one
  /// partly filled; in ASCII whole rows of `#`. A day with a swipe shows at least a sliver.
  static func barCell(_ swipes: Int, most: Int, row level: Int, ascii: Bool) -> Character {
    guard swipes > 0, most > 0 else { return " " }
    let share = Double(swipes) / Double(most) * Double(chartRows)
    if ascii { return level < max(Int(share.rounded()), 1) ? "#" : " " }
    let filled = max(Int((share * 8).rounded()), 1) - level * 8
    return eighths[min(max(filled, 0), 8)]
  }

  // MARK: Types

  /// The marks of the stacked reactions, CTFO first, and their ASCII forms.
  private static let stack: [(Reaction, Character, Character)] = [
    (.ctfo, "█", "#"), (.tfu, "▓", "+"), (.tifb, "░", "."),
  ]

  private static func drawTypes(
    _ stats: ReadingStats, ascii: Bool, mark: TruncationMark, row top: Int,
    into grid: inout CellGrid, palette: Palette
  ) {
    let types = Geometry.statsTypes(stats)
    let labels = types.map { Untrusted.line($0.label) }
    let labelWidth = min(labels.map { DisplayWidth.of($0) }.max() ?? 0, maxLabelWidth)
    let digits = "\(types.map { max($0.ctfo, $0.tfu, $0.tifb) }.max() ?? 0)".count
    let counts = 3 * digits + 2
    let rounds = types.map { $0.cards > 0 ? "\($0.roundSeen)/\($0.cards)" : "-" }
    let roundWidth = max(rounds.map(\.count).max() ?? 0, 5)
    let oneRow = grid.width >= oneRowWidth
    // Label, bar, counts; then, on one row, liked and round.
    let tail = oneRow ? 1 + 5 + 2 + roundWidth : 0
    let barWidth = max(grid.width - 1 - labelWidth - 1 - 1 - counts - tail - 1, 4)
    let legend = stack.map { "\(ascii ? $0.2 : $0.1) \($0.0.rawValue)" }.joined(separator: " ")
    grid.drawChrome("Type", row: top, column: 1, style: palette.title)
    grid.drawChrome(legend, row: top, column: 2 + labelWidth, style: palette.quiet)
    if oneRow {
      let liked = grid.width - 1 - roundWidth - 2 - 5
      grid.drawChrome("liked", row: top, column: liked, style: palette.title)
      grid.drawChrome(
        "round", row: top, column: grid.width - 1 - 5, style: palette.title)
    }
    let most = types.map(\.swipes).max() ?? 0
    var row = top + 1
    for (i, type) in types.enumerated() {
      grid.drawClipped(
        labels[i], row: row, column: 1, style: palette.title, limit: 1 + labelWidth, mark: mark)
      var column = 2 + labelWidth
      let share = most == 0 ? 0 : Double(type.swipes) / Double(most) * Double(barWidth)
      let length = max(Int(share.rounded()), type.swipes > 0 ? 1 : 0)
      for (reaction, segment) in zip(stack, split(length, type)) {
        column = grid.drawChrome(
          String(repeating: ascii ? reaction.2 : reaction.1, count: segment), row: row,
          column: column, style: palette.reaction(reaction.0))
      }
      let numbers = stack.map { pad("\(type.count($0.0))", digits) }.joined(separator: " ")
      grid.drawChrome(numbers, row: row, column: 2 + labelWidth + barWidth + 1)
      let liked = type.likedPercent.map { "\($0)%" } ?? "-"
      if oneRow {
        grid.drawChrome(pad(liked, 5), row: row, column: grid.width - 1 - roundWidth - 2 - 5)
        grid.drawChrome(pad(rounds[i], roundWidth), row: row, column: grid.width - 1 - roundWidth)
      } else {
        row += 1
        grid.drawChrome(
          "liked \(liked), round \(rounds[i])", row: row, column: 2 + labelWidth,
          style: palette.quiet)
      }
      row += 1
    }
  }

  /// `length` cells shared among the type's CTFO, TFU and TIFB by their counts, the cells left
  /// over from rounding down going to the largest remainders.
  static func split(_ length: Int, _ type: ReadingStats.TypeLine) -> [Int] {
    let counts = stack.map { type.count($0.0) }
    let total = counts.reduce(0, +)
    guard total > 0, length > 0 else { return [0, 0, 0] }
    let exact = counts.map { Double($0) / Double(total) * Double(length) }
    var cells = exact.map { Int($0) }
    var left = length - cells.reduce(0, +)
    let remainders = exact.indices.map { exact[$0] - Double(cells[$0]) }
    for i in exact.indices.sorted(by: { remainders[$0] > remainders[$1] }) where left > 0 {
      cells[i] += 1
      left -= 1
    }
    return cells
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(width - text.count, 0)) + text
  }
}

extension Palette {
  /// The bars of the day chart.
  var bar: CellStyle { colour ? CellStyle(foreground: .cyan) : .plain }

  /// A reaction's part of a stack: CTFO green, TFU cyan, TIFB red; without colour the marks
  /// alone tell them apart.
  func reaction(_ reaction: Reaction) -> CellStyle {
    guard colour else { return .plain }
    switch reaction {
    case .ctfo: return CellStyle(foreground: .green)
    case .tfu: return CellStyle(foreground: .cyan)
    case .tifb: return CellStyle(foreground: .red)
    }
  }
}
