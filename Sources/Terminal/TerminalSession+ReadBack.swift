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

  private func style(_ attributes: attr_t, pair: Int16) -> CellStyle {
    CellStyle(
      foreground: TerminalColour.allCases.first { TerminalType.pair(of: $0) == pair },
      bold: attributes & cnc_a_bold() != 0, reverse: attributes & cnc_a_reverse() != 0,
      dim: attributes & cnc_a_dim() != 0, underline: attributes & cnc_a_underline() != 0)
  }
}
