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
    let previous = shown.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
    for row in 0..<min(height, grid.height) {
      for column in 0..<min(width, grid.width)
      where previous.map({ changed(grid, $0, row, column) }) ?? true {
        put(grid, row: row, column: column, windowWidth: width)
      }
    }
    shown = grid
    wnoutrefresh(window)
    doupdate()
  }

  /// Whether the cluster starting at this cell (with its right half) differs from the last draw.
  func changed(_ grid: CellGrid, _ previous: CellGrid, _ row: Int, _ column: Int) -> Bool {
    if grid[row, column] != previous[row, column] { return true }
    guard column + 1 < grid.width, grid[row, column + 1] == .continuation else { return false }
    return previous[row, column + 1] != .continuation
  }

  /// Writes the cell at row, column; a continuation cell is written only when orphaned.
  func put(_ grid: CellGrid, row: Int, column: Int, windowWidth: Int) {
    let cell = grid[row, column]
    guard let cluster = cell.cluster else {
      if column == 0 || grid[row, column - 1].cluster == nil || !isWide(grid, row, column - 1) {
        write(" ", style: cell.style, row: row, column: column)
      }
      return
    }
    let wide = isWide(grid, row, column)
    if wide && column + 1 >= windowWidth {
      write(" ", style: cell.style, row: row, column: column)
      return
    }
    write(cluster, style: cell.style, row: row, column: column)
    if wide && Int(getcurx(window)) != column + 2 {
      write(" ", style: cell.style, row: row, column: column + 1)
    }
  }

  func isWide(_ grid: CellGrid, _ row: Int, _ column: Int) -> Bool {
    column + 1 < grid.width && grid[row, column + 1] == .continuation
  }

  /// Puts one cluster through the wide-character API. A cluster curses cannot print (unknown to
  /// the C library, or starting with a combining mark) becomes U+FFFD.
  func write(_ cluster: Character, style: CellStyle, row: Int, column: Int) {
    var text = Array(cluster.unicodeScalars.prefix(Int(CCHARW_MAX)).map { wchar_t($0.value) })
    if cnc_wcwidth(text[0]) <= 0 { text = [0xFFFD] }
    text.append(0)
    var cell = cchar_t()
    let pair = hasColour ? style.foreground.map(TerminalType.pair(of:)) ?? 0 : 0
    guard setcchar(&cell, text, attributes(of: style), pair, nil) == OK else { return }
    // Past the bottom-right cell the cursor cannot advance: curses stores the cell and
    // reports ERR, which is expected there.
    _ = mvwadd_wch(window, Int32(row), Int32(column), &cell)
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
