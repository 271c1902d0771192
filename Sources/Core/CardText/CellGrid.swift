/// The eight basic terminal colours.
public enum TerminalColour: String, Sendable, Hashable, CaseIterable {
  case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn.
public struct CellStyle: Sendable, Hashable {
  public var foreground: TerminalColour?
  public var bold: Bool
  public var reverse: Bool
  public var dim: Bool
  public var underline: Bool

  public init(
    foreground: TerminalColour? = nil, bold: Bool = false, reverse: Bool = false,
    dim: Bool = false, underline: Bool = false
  ) {
    self.foreground = foreground
    self.bold = bold
    self.reverse = reverse
    self.dim = dim
    self.underline = underline
  }

  public static let plain = CellStyle()
}

/// One screen cell: a grapheme cluster and its style.
///
/// A cluster wider than one cell occupies its cell and the next ones, which hold
/// `Cell.continuation`.
public struct Cell: Sendable, Hashable {
  public var cluster: Character?
  public var style: CellStyle

  public init(_ cluster: Character?, style: CellStyle = .plain) {
    self.cluster = cluster
    self.style = style
  }

  public static let blank = Cell(" ")
  /// A cell covered by the wide cluster on its left.
  public static let continuation = Cell(nil)
}

/// An in-memory picture of the screen: what `Screens` render into and `Terminal` flushes.
///
///     var grid = CellGrid(width: 10, height: 2)
///     grid.put("日本", row: 0, column: 0)
///     grid.lines  // ["日本      ", "          "]
public struct CellGrid: Sendable, Hashable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]

  public init(width: Int, height: Int) {
    self.width = max(width, 0)
    self.height = max(height, 0)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(row: Int, column: Int) -> Cell {
    get { cells[row * width + column] }
    set { cells[row * width + column] = newValue }
  }

  /// Writes sanitised text on one row from `column`, clipped at `limit` columns (default: the
  /// right edge); a wide cluster that would straddle the limit is not drawn. Returns the column
  /// after the last cell written.
  @discardableResult
  public mutating func put(
    _ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .plain,
    limit: Int? = nil
  ) -> Int {
    guard row >= 0, row < height else { return column }
    let end = min(limit ?? width, width)
    var col = max(column, 0)
    for cluster in text {
      let w = DisplayWidth.of(cluster)
      if w == 0 { continue }
      if col + w > end { break }
      self[row, col] = Cell(cluster, style: style)
      for covered in col + 1..<col + w { self[row, covered] = Cell(nil, style: style) }
      col += w
    }
    return col
  }

  /// Fills a rectangle with blanks of a style; only its part on the grid, none when it lies
  /// wholly off the grid (a card dragged or sliding past an edge).
  public mutating func fill(row: Int, column: Int, width w: Int, height h: Int, style: CellStyle) {
    let rows = max(row, 0)..<max(min(row + h, height), max(row, 0))
    let columns = max(column, 0)..<max(min(column + w, width), max(column, 0))
    for r in rows {
      for c in columns { self[r, c] = Cell(" ", style: style) }
    }
  }

  /// The grid as plain text lines, wide clusters once: for tests and snapshots.
  public var lines: [String] {
    (0..<height).map { r in
      var s = ""
      for c in 0..<width { if let cl = self[r, c].cluster { s.append(cl) } }
      return s
    }
  }
}
