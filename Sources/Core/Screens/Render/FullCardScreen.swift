import App
import CardText
import FeedCore

/// The whole text of a card, the reveal included, scrolled with the arrows.
public enum FullCardScreen {
  static let textTop = Geometry.listTop

  static func draw(
    _ view: FullCardView, types: [String: CardType], into grid: inout CellGrid, palette: Palette
  ) {
    let type = types[view.card.card.type] ?? CardType(name: view.card.card.type)
    let left = (grid.width - Geometry.fullCardWidth(width: grid.width)) / 2
    grid.draw(
      " " + Untrusted.line(type.label) + " ", row: 0, column: left,
      style: palette.label(type.colour))
    let all = Geometry.fullCardLines(view.card, width: grid.width)
    let rows = Geometry.fullCardRows(height: grid.height)
    let range = view.scroll..<min(view.scroll + rows, all.count)
    let titleRows = CardScreen.titleLineCount(title: view.card.card.title, lines: all)
    for index in range {
      grid.draw(
        all[index], row: textTop + index - view.scroll, column: left,
        style: index < titleRows ? palette.title : .plain,
        limit: left + Geometry.fullCardWidth(width: grid.width))
    }
    guard all.count > rows else { return }
    let position = "\(range.lowerBound + 1)-\(range.upperBound) of \(all.count)"
    grid.drawChrome(position, row: 0, column: grid.width - 1 - position.count, style: palette.quiet)
  }
}
