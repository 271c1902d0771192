import FeedCore

/// The left button held down: where it went down, where it is now, and whether it took the
/// feed's card with it (then the card follows the pointer until the button is let go).
public struct PointerPress: Sendable, Hashable {
  public var startColumn: Int
  public var startRow: Int
  public var column: Int
  public var row: Int
  /// True when it went down on the feed's card.
  public var holdsCard: Bool

  public init(column: Int, row: Int, holdsCard: Bool) {
    (startColumn, startRow, self.column, self.row) = (column, row, column, row)
    self.holdsCard = holdsCard
  }

  /// How far the pointer moved: columns to the right, rows down.
  public var dx: Int { column.subtractingReportingOverflow(startColumn).partialValue }
  public var dy: Int { row.subtractingReportingOverflow(startRow).partialValue }

  /// A click rather than a drag: let go where it went down, give or take a cell.
  public var isClick: Bool { (-1...1).contains(dx) && (-1...1).contains(dy) }

  /// The swipe that letting go now makes of a card in `frame`: past a third of its width to
  /// the right or left, or of its height upward; the larger share wins when both are past.
  /// Nil when the card would settle back.
  public func swipe(of frame: BoxFrame) -> SwipeDirection? {
    let across = Double(dx) / Double(max(frame.width, 1))
    let upward = Double(-dy) / Double(max(frame.height, 1))
    let third = 1.0 / 3.0
    if abs(across) > third, abs(across) >= upward { return across > 0 ? .right : .left }
    return upward > third ? .up : nil
  }
}
