import CNcursesw
import CardText
import Glibc

extension TerminalSession {
  /// Draws a grid: only the cells that changed since the last draw are sent.
  ///
  /// Cells outside the window are clipped; `Cell.continuation` cells are covered by the wide
  /// cluster on their left. One `doupdate` per call.
  public func draw(_ grid: CellGrid) {
    let (width, height) = size
    let sameSize = shown.map { $0.width == grid.width && $0.height == grid.height } ?? false
    let previous = sameSize ? shown?.cells : nil
    let cells = grid.cells
    for row in 0..<min(height, grid.height) {
      let start = row * grid.width
      for column in 0..<min(width, grid.width) {
        let index = start + column
        func dirty(_ index: Int) -> Bool { previous.map { $0[index] != cells[index] } ?? true }
        let cell = cells[index]
        guard let cluster = cell.cluster else {
          // A continuation is drawn by the wide cluster on its left, or is a blank if orphaned.
          if dirty(index) && (column == 0 || cells[index - 1].cluster == nil) {
            write(" ", style: cell.style, row: row, column: column)
          }
          continue
        }
        let wide = column + 1 < grid.width && cells[index + 1].cluster == nil
        guard dirty(index) || (wide && dirty(index + 1)) else { continue }
        put(cluster, style: cell.style, wide: wide, row: row, column: column, windowWidth: width)
      }
    }
    shown = grid
    wnoutrefresh(window)
    doupdate()
  }

  /// Writes a cluster; a wide one that does not fit in the window becomes a blank, and one that
  /// curses counts narrow gets a blank on its right half.
  func put(
    _ cluster: Character, style: CellStyle, wide: Bool, row: Int, column: Int, windowWidth: Int
  ) {
    guard !wide || column + 1 < windowWidth else {
      return write(" ", style: style, row: row, column: column)
    }
    write(cluster, style: style, row: row, column: column)
    if wide && Int(getcurx(window)) != column + 2 {
      write(" ", style: style, row: row, column: column + 1)
    }
  }

  /// Puts one cluster through the wide-character API. A cluster curses cannot print (unknown to
  /// the C library, or starting with a combining mark) becomes U+FFFD.
  func write(_ cluster: Character, style: CellStyle, row: Int, column: Int) {
    let capacity = Int(CCHARW_MAX)
    withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: capacity + 1) { text in
      var count = 0
      for scalar in cluster.unicodeScalars where count < capacity {
        text[count] = wchar_t(scalar.value)
        count += 1
      }
      if cnc_wcwidth(text[0]) <= 0 {
        text[0] = 0xFFFD
        count = 1
      }
      text[count] = 0
      var cell = cchar_t()
      let pair = hasColour ? style.foreground.map(TerminalType.pair(of:)) ?? 0 : 0
      guard setcchar(&cell, text.baseAddress, attributes(of: style), pair, nil) == OK else {
        return
      }
      // Past the bottom-right cell the cursor cannot advance: curses stores the cell and
      // reports ERR, which is expected there.
      _ = mvwadd_wch(window, Int32(row), Int32(column), &cell)
    }
  }

  func attributes(of style: CellStyle) -> attr_t {
    var attributes = cnc_a_normal()
    if style.bold { attributes |= cnc_a_bold() }
    if style.reverse { attributes |= cnc_a_reverse() }
    if style.dim { attributes |= cnc_a_dim() }
    if style.underline { attributes |= cnc_a_underline() }
    return attributes
  }
}
