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
    for row in 0..<min(height, grid.height) {
      drawRow(row, of: grid, previous: previous, windowWidth: width)
    }
    shown = grid
    wnoutrefresh(window)
    doupdate()
  }

  /// Draws the changed clusters of one row. A cluster curses holds in several cells (a flag, a
  /// vowel sign) must reach the terminal in one run, or the terminal draws its pieces apart:
  /// when one is drawn, or one drawn before is changed in part, `wredrawln` has the whole row
  /// sent again.
  private func drawRow(_ row: Int, of grid: CellGrid, previous: [Cell]?, windowWidth: Int) {
    let start = row * grid.width
    let cells = grid.cells
    let end = min(windowWidth, grid.width)
    func dirty(_ range: Range<Int>) -> Bool {
      guard let previous else { return true }
      return range.contains { previous[start + $0] != cells[start + $0] }
    }
    var column = 0
    var (changed, sendsRow) = (false, false)
    while column < end {
      var span = 1
      while column + span < grid.width && cells[start + column + span].cluster == nil { span += 1 }
      let covered = column..<min(column + span, end)
      if dirty(covered) {
        changed = true
        sendsRow = draw(cells[start + column], row: row, cells: covered) > 1 || sendsRow
      }
      column = covered.upperBound
    }
    let shownInPieces = { previous?[start..<start + end].contains(where: Self.isInPieces) ?? false }
    if sendsRow || (changed && shownInPieces()) { wredrawln(window, Int32(row), 1) }
  }

  /// True when curses holds the cell's cluster in more than one piece.
  private static func isInPieces(_ cell: Cell) -> Bool {
    guard let cluster = cell.cluster, onlyScalar(of: cluster) == nil else { return false }
    return cluster.unicodeScalars.lazy.filter { cnc_wcwidth(wchar_t($0.value)) > 0 }.count > 1
  }

  /// Draws a cell's cluster piece by piece over the cells it covers in the window, blanks in
  /// those the pieces leave; only blanks when it does not fit. Returns the count of pieces drawn.
  private func draw(_ cell: Cell, row: Int, cells: Range<Int>) -> Int {
    // Most clusters are one character: drawn without building pieces (a swipe redraws
    // nearly every cell, and the pieces' arrays cost a quarter of a millisecond a frame).
    if let scalar = cell.cluster.flatMap(Self.onlyScalar(of:)) {
      let character = wchar_t(scalar.value)
      let width = Int(cnc_wcwidth(character))
      if width > 0 && width <= cells.count {
        write(character, style: cell.style, row: row, column: cells.lowerBound)
        for blank in cells.lowerBound + width..<cells.upperBound {
          write(0x20, style: cell.style, row: row, column: blank)
        }
        return 1
      }
    }
    let pieces = cell.cluster.map { Self.pieces(of: $0) } ?? []
    let width = pieces.reduce(0) { $0 + $1.width }
    let drawn = width <= cells.count ? pieces : []
    var column = cells.lowerBound
    for piece in drawn {
      write(piece, style: cell.style, row: row, column: column)
      column += piece.width
    }
    for blank in column..<cells.upperBound {
      write(.blank, style: cell.style, row: row, column: blank)
    }
    return drawn.count
  }

  /// What one `cchar_t` holds: a spacing character and the non-spacing ones after it.
  struct Piece {
    var characters: [wchar_t]
    /// The cells curses gives it: the C library's width of its spacing character.
    var width: Int

    static let blank = Piece(characters: [0x20], width: 1)
    static let replacement = Piece(characters: [0xFFFD], width: 1)
  }

  /// Splits a cluster before each spacing character, as `setcchar` keeps only one: the pieces'
  /// widths add up to the cluster's display width. Non-spacing characters before the first
  /// spacing one, or past `CCHARW_MAX` in a piece, have no cell and are left out; a cluster with
  /// no spacing character becomes U+FFFD.
  static func pieces(of cluster: Character) -> [Piece] {
    if let ascii = cluster.asciiValue { return [Piece(characters: [wchar_t(ascii)], width: 1)] }
    var pieces: [Piece] = []
    for scalar in cluster.unicodeScalars {
      let character = wchar_t(scalar.value)
      let width = Int(cnc_wcwidth(character))
      if width > 0 {
        pieces.append(Piece(characters: [character], width: width))
      } else if !pieces.isEmpty && pieces[pieces.count - 1].characters.count < CCHARW_MAX {
        pieces[pieces.count - 1].characters.append(character)
      }
    }
    return pieces.isEmpty ? [.replacement] : pieces
  }

  /// The cluster's character when it has only one.
  static func onlyScalar(of cluster: Character) -> Unicode.Scalar? {
    let scalars = cluster.unicodeScalars
    guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex
    else { return nil }
    return first
  }

  /// Puts one piece through the wide-character API.
  func write(_ piece: Piece, style: CellStyle, row: Int, column: Int) {
    (piece.characters + [0]).withUnsafeBufferPointer {
      write($0.baseAddress!, style: style, row: row, column: column)
    }
  }

  /// Puts one spacing character through the wide-character API.
  func write(_ character: wchar_t, style: CellStyle, row: Int, column: Int) {
    withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 2) { text in
      text[0] = character
      text[1] = 0
      write(text.baseAddress!, style: style, row: row, column: column)
    }
  }

  /// Puts a NUL-terminated string of wide characters (one spacing, then non-spacing) in a cell.
  private func write(
    _ text: UnsafePointer<wchar_t>, style: CellStyle, row: Int, column: Int
  ) {
    var cell = cchar_t()
    let pair = hasColour ? style.foreground.map(TerminalType.pair(of:)) ?? 0 : 0
    guard setcchar(&cell, text, attributes(of: style), pair, nil) == OK else { return }
    // Past the bottom-right cell the cursor cannot advance: curses stores the cell and reports
    // ERR, which is expected there.
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
