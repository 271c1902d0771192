import App
import CardText
import Screens
import TestFixtures
import Testing

/// A message longer than the hint line is cut with the truncation mark, as every cut is.
@Suite struct MessageCutTests {
  private static let blocked =
    "Cannot change the types while 5 swipes can be undone (on-replace = block-if-tombstones)."

  private func bar(_ state: AppState) -> String {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines.last ?? ""
  }

  @Test(arguments: [40, 80])
  func aLongMessageEndsWithTheMark(width: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width)
    state.message = Self.blocked
    let line = bar(state)
    #expect(line.hasPrefix(" Cannot change the types"), "\(line)")
    #expect(line.hasSuffix("… ") || line.hasSuffix("…"), "\(line)")
    #expect(DisplayWidth.of(line) <= width, "\(line)")
  }

  @Test func theASCIIMarkEndsItWhereTheEllipsisMayBeWide() {
    var state = Fixtures.showing(Fixtures.asciiCard, mark: .ascii)
    state.message = Self.blocked
    let line = bar(state)
    #expect(line.trimmingTrailingSpaces.hasSuffix("..."), "\(line)")
  }

  @Test func aMessageThatFitsIsWhole() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 100)
    state.message = Self.blocked
    #expect(bar(state).hasPrefix(" " + Self.blocked + " "), "\(bar(state))")
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
