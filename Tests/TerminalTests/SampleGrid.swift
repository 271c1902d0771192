import CardText

/// Grids with ASCII, CJK, emoji, combining marks and styles, filling any size to its edges.
enum SampleGrid {
  static let rows: [(String, CellStyle)] = [
    ("Hello, world! plain ASCII text that runs on and on", .plain),
    ("日本語のカード、中文卡片、한국어 카드", CellStyle(foreground: .cyan, bold: true)),
    ("emoji 😀🎉🚀 between words 🌍", CellStyle(reverse: true)),
    ("combining: e\u{301}a\u{300}o\u{308} n\u{303} Å", CellStyle(dim: true, underline: true)),
  ]

  static func make(width: Int, height: Int) -> CellGrid {
    var grid = CellGrid(width: width, height: height)
    for row in 0..<height {
      let (text, style) = rows[row % rows.count]
      let repeated = String(repeating: text + " ", count: width / 8 + 1)
      grid.put(repeated.dropFirst(row % 3), row: row, column: 0, style: style)
    }
    if width > 1 && grid[height - 1, width - 1].cluster == nil {
      grid[height - 1, width - 2] = .blank
    }
    if width > 0 && height > 0 {
      grid[height - 1, width - 1] = Cell("#", style: CellStyle(foreground: .yellow))
    }
    return grid
  }
}
