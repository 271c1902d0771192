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
}
