import Testing

@testable import CardText

@Suite struct CellGridTests {
  @Test func aClusterCoversAsManyCellsAsItIsWide() {
    var grid = CellGrid(width: 8, height: 1)
    #expect(grid.put("a\u{1100}\u{1100}🇫🇷b", row: 0, column: 0) == 8)
    let clusters = grid.cells.map(\.cluster)
    #expect(clusters == ["a", "\u{1100}\u{1100}", nil, nil, nil, "🇫🇷", nil, "b"])
  }
}
