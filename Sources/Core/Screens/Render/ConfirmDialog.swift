import App
import CardText

/// A yes/no question in a box over the screen it came from.
enum ConfirmDialog {
  static let maxWidth = 50

  static func draw(_ question: Confirmation, into grid: inout CellGrid, palette: Palette) {
    let width = min(maxWidth, grid.width - 2)
    let lines = Untrusted.wrapped(question.question, width: width - 4, height: grid.height - 6)
    let answers = "y: yes    n: no"
    let height = lines.count + 4
    let frame = BoxFrame(
      left: (grid.width - width) / 2, top: max((grid.height - 1 - height) / 2, 0), width: width,
      height: height)
    grid.clear(row: frame.top, column: frame.left, width: frame.width, height: frame.height)
    grid.drawBox(frame)
    for (i, line) in lines.enumerated() {
      grid.draw(line, row: frame.top + 1 + i, column: frame.left + 2, limit: frame.right - 2)
    }
    grid.drawChrome(
      answers, row: frame.bottom - 1, column: frame.left + (width - answers.count) / 2,
      style: palette.key)
  }
}
