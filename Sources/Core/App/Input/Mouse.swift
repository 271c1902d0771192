/// One report of the mouse, as the terminal sends it in xterm's SGR form (mode 1006): the left
/// button pressed, moved while held, or released, or a turn of the wheel. Other buttons are
/// not reported.
///
///     MouseEvent(.press, column: 40, row: 10)  // the cell, from 0 at the top left
public struct MouseEvent: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case press, drag, release, wheelUp, wheelDown
  }

  public var kind: Kind
  /// The cell, counted from 0 at the top left; a report may lie off the screen.
  public var column: Int
  public var row: Int

  public init(_ kind: Kind, column: Int, row: Int) {
    self.kind = kind
    self.column = column
    self.row = row
  }

  /// The report moved onto a screen of `width` by `height` cells: a terminal reports a drag
  /// past an edge as it is (a column past the last), and whatever the app draws from a report
  /// must lie on the screen.
  public func clamped(width: Int, height: Int) -> MouseEvent {
    var event = self
    event.column = min(max(column, 0), max(width - 1, 0))
    event.row = min(max(row, 0), max(height - 1, 0))
    return event
  }
}
