import CNcursesw
import CardText

extension TerminalSession {
  /// What curses holds for a cell of the window, read back with `mvwin_wch`: its code points and
  /// style. For tests: what `draw` put there.
  func cellInWindow(row: Int, column: Int) -> (text: String, style: CellStyle) {
    var cell = cchar_t()
    guard mvwin_wch(window, Int32(row), Int32(column), &cell) == OK else { return ("", .plain) }
    var text = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
    var attributes: attr_t = 0
    var pair: Int16 = 0
    _ = getcchar(&cell, &text, &attributes, &pair, nil)
    let scalars = text.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32($0)) }
    return (String(String.UnicodeScalarView(scalars)), style(attributes, pair: pair))
  }

  /// The cluster drawn over `width` cells from a cell: the pieces `draw` wrote, one cell per
  /// spacing character, read back and joined. For tests.
  func clusterInWindow(row: Int, column: Int, width: Int) -> (text: String, style: CellStyle) {
    let first = cellInWindow(row: row, column: column)
    var text = first.text
    var next = column + cellWidth(of: first.text)
    while next < column + width {
      let piece = cellInWindow(row: row, column: next).text
      text += piece
      next += cellWidth(of: piece)
    }
    return (text, first.style)
  }

  /// The cells a piece read back takes: the C library's width of its first code point, at least 1.
  private func cellWidth(of piece: String) -> Int {
    max(Int(cnc_wcwidth(wchar_t(piece.unicodeScalars.first?.value ?? 0x20))), 1)
  }

  private func style(_ attributes: attr_t, pair: Int16) -> CellStyle {
    CellStyle(
      foreground: TerminalColour.allCases.first { TerminalType.pair(of: $0) == pair },
      bold: attributes & cnc_a_bold() != 0, reverse: attributes & cnc_a_reverse() != 0,
      dim: attributes & cnc_a_dim() != 0, underline: attributes & cnc_a_underline() != 0)
  }
}
