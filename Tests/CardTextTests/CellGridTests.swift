import Testing

@testable import CardText

@Suite struct CellGridTests {
  @Test func aClusterCoversAsManyCellsAsItIsWide() {
    var grid = CellGrid(width: 8, height: 1)
    #expect(grid.put("a\u{1100}\u{1100}🇫🇷b", row: 0, column: 0) == 8)
    let clusters = grid.cells.map(\.cluster)
    #expect(clusters == ["a", "\u{1100}\u{1100}", nil, nil, nil, "🇫🇷", nil, "b"])
  }

  /// A rectangle partly or wholly off the grid fills only what lies on it: none of it past
  /// the right or bottom edge, or left of or above the grid.
  @Test func aFillOffTheGridFillsOnlyWhatIsOnIt() {
    var grid = CellGrid(width: 4, height: 3)
    let marked = CellStyle(reverse: true)
    for (row, column) in [(0, 9), (9, 0), (-9, 0), (0, -9), (-1, -1), (2, 3)] {
      grid.fill(row: row, column: column, width: 2, height: 2, style: marked)
    }
    let filled = grid.cells.indices.filter { grid.cells[$0].style == marked }
    #expect(filled == [0, 11], "the cells (0, 0) and (2, 3)")
  }
}
