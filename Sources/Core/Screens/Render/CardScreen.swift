import App
import CardText
import FeedCore

/// The feed screen: the card in a box centred on the screen, the loading placeholder and the
/// "unavailable" message.
public enum CardScreen {
  static let chromeHeight = Geometry.chromeHeight

  static func frame(lines: Int, width: Int, height: Int) -> BoxFrame {
    Geometry.cardFrame(lines: lines, width: width, height: height)
  }

  /// Draws the feed: the sliding card while a slide-out plays, else the card (moved by `drag`
  /// while the mouse holds it), the placeholder or the "unavailable" message.
  static func draw(
    _ slot: FeedDisplay, slide: SlideOut?, drag: (dx: Int, dy: Int)? = nil,
    types: [String: CardType], mark: TruncationMark, into grid: inout CellGrid, palette: Palette
  ) {
    if let slide {
      drawSliding(slide, types: types, mark: mark, into: &grid, palette: palette)
      return
    }
    switch slot {
    case .card(let card):
      let frame = frame(
        lines: card.prepared.layout.lines.count, width: grid.width, height: grid.height
      ).offset(dx: drag?.dx ?? 0, dy: drag?.dy ?? 0)
      drawCard(card, types: types, mark: mark, in: frame, into: &grid, palette: palette)
    case .loading: drawPlaceholder(into: &grid, palette: palette)
    case .unavailable(let reason): drawUnavailable(reason, into: &grid, palette: palette)
    }
  }

  private static func drawSliding(
    _ slide: SlideOut, types: [String: CardType], mark: TruncationMark,
    into grid: inout CellGrid, palette: Palette
  ) {
    let frame = frame(
      lines: slide.card.prepared.layout.lines.count, width: grid.width, height: grid.height)
    let distance: (dx: Int, dy: Int) =
      switch slide.direction {
      case .right: (grid.width - frame.left, 0)
      case .left: (-frame.right, 0)
      case .up: (0, -(frame.bottom + 1))
      }
    // From where it stood (where the mouse let go of it) to off the screen.
    func along(_ start: Int, _ end: Int) -> Int {
      start + Int(Double(end - start) * slide.progress)
    }
    let moved = frame.offset(
      dx: along(slide.startColumn, distance.dx), dy: along(slide.startRow, distance.dy))
    drawCard(slide.card, types: types, mark: mark, in: moved, into: &grid, palette: palette)
  }

  private static func drawCard(
    _ card: ShownCard, types: [String: CardType], mark: TruncationMark, in frame: BoxFrame,
    into grid: inout CellGrid, palette: Palette
  ) {
    let type = types[card.prepared.card.type] ?? CardType(name: card.prepared.card.type)
    grid.clear(row: frame.top, column: frame.left, width: frame.width, height: frame.height)
    grid.drawBox(
      frame, label: Untrusted.line(type.label), labelStyle: palette.label(type.colour), mark: mark)
    let lines = card.prepared.layout.lines.prefix(frame.height - chromeHeight)
    let titleRows = titleLineCount(
      title: card.prepared.card.title, lines: card.prepared.layout.lines)
    for (i, line) in lines.enumerated() {
      grid.draw(
        line, row: frame.top + 1 + i, column: frame.left + 2,
        style: i < titleRows ? palette.title : .plain, limit: frame.right - 2)
    }
    drawFooter(card, mark: mark, in: frame, into: &grid, palette: palette)
    if card.hasMore { drawMoreMark(in: frame, into: &grid, palette: palette) }
  }

  /// "Enter: more" on the bottom edge: the card has more than the box shows.
  private static func drawMoreMark(in frame: BoxFrame, into grid: inout CellGrid, palette: Palette)
  {
    let mark = " Enter: more "
    guard frame.width >= mark.count + 4 else { return }
    grid.drawChrome(
      mark, row: frame.bottom, column: frame.right - 2 - mark.count, style: palette.key)
  }

  /// The rows of the layout that hold the title: those before the first blank line.
  static func titleLineCount(title: String?, lines: [String]) -> Int {
    guard let title, !title.isEmpty else { return 0 }
    return lines.firstIndex(of: "") ?? 0
  }

  private static func drawFooter(
    _ card: ShownCard, mark: TruncationMark, in frame: BoxFrame, into grid: inout CellGrid,
    palette: Palette
  ) {
    let row = frame.bottom - 1
    // A card shown before its history row could be written has no number yet.
    let position = card.position >= 0 ? "#\(card.position + 1)" : "unsaved"
    let positionColumn = frame.right - 2 - position.count
    grid.drawChrome(position, row: row, column: positionColumn, style: palette.quiet)
    guard let source = card.prepared.card.faceSource else { return }
    grid.drawClipped(
      Untrusted.line(source), row: row, column: frame.left + 2, style: palette.quiet,
      limit: positionColumn - 1, mark: mark)
  }

  private static func drawPlaceholder(into grid: inout CellGrid, palette: Palette) {
    let frame = frame(lines: 0, width: grid.width, height: grid.height)
    grid.drawBox(frame)
    let text = "Loading…"
    let row = frame.top + 1 + (frame.height - chromeHeight) / 2
    grid.drawChrome(
      text, row: row, column: frame.left + (frame.width - text.count) / 2, style: palette.quiet)
  }

  private static func drawUnavailable(_ reason: String, into grid: inout CellGrid, palette: Palette)
  {
    let area = Geometry.textArea(width: grid.width, height: grid.height)
    let lines =
      ["No cards can be shown", ""]
      + Untrusted.wrapped(reason, width: area.width, height: area.height)
      + ["", "Press s for settings"]
    let frame = frame(lines: lines.count, width: grid.width, height: grid.height)
    grid.drawBox(frame)
    for (i, line) in lines.prefix(frame.height - chromeHeight).enumerated() {
      grid.draw(
        line, row: frame.top + 1 + i, column: frame.left + 2,
        style: i == 0 ? palette.warning : .plain,
        limit: frame.right - 2)
    }
  }
}
