/// A selection in a scrolling list and the first row on screen.
public struct ListViewport: Sendable, Hashable {
  public var selection: Int
  public var top: Int

  public init(selection: Int = 0, top: Int = 0) {
    self.selection = selection
    self.top = top
  }

  /// Moves the selection by `delta` rows within `count` items and scrolls so that it stays
  /// inside the `rows` on screen.
  public mutating func move(by delta: Int, count: Int, rows: Int) {
    guard count > 0 else {
      self = ListViewport()
      return
    }
    selection = min(max(selection + delta, 0), count - 1)
    reveal(rows: rows)
  }

  /// Scrolls the least amount that shows the selection in `rows` rows.
  public mutating func reveal(rows: Int) {
    let rows = max(rows, 1)
    if selection < top { top = selection }
    if selection >= top + rows { top = selection - rows + 1 }
  }
}
