/// A rectangle on the screen; it may lie partly or wholly off the screen.
public struct BoxFrame: Sendable, Hashable {
  public var left: Int
  public var top: Int
  public var width: Int
  public var height: Int

  public init(left: Int, top: Int, width: Int, height: Int) {
    self.left = left
    self.top = top
    self.width = width
    self.height = height
  }

  public var right: Int { left + width }
  /// The last row.
  public var bottom: Int { top + height - 1 }

  /// The frame moved by `dx` columns and `dy` rows.
  public func offset(dx: Int, dy: Int) -> BoxFrame {
    BoxFrame(left: left + dx, top: top + dy, width: width, height: height)
  }

  /// True when the cell at `column`, `row` lies inside the frame, borders included.
  public func contains(column: Int, row: Int) -> Bool {
    (left..<right).contains(column) && (top...bottom).contains(row)
  }
}
