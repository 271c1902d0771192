import CardText
import FeedCore
import FeedPipeline

/// The whole text of a card, the reveal included, scrolled with the arrows.
public enum FullCardScreen {
  static let textTop = 2

  /// How many text rows fit on a screen `height` rows tall.
  public static func visibleRows(height: Int) -> Int { max(height - textTop - 1, 1) }

  /// The text width on a screen `width` columns wide.
  static func textWidth(width: Int) -> Int { max(min(CardScreen.maxTextWidth, width - 4), 1) }

  /// The whole card laid out to the screen's text width: title, body, then the reveal.
  static func lines(_ card: PreparedCard, width: Int) -> [String] {
    let w = textWidth(width: width)
    let main = CardLayout.layout(
      title: card.card.title, body: card.card.body, width: w, height: .max)
    guard let reveal = card.card.reveal, !reveal.isEmpty else { return main.lines }
    let shown = CardLayout.layout(title: nil, body: reveal, width: w, height: .max)
    return main.lines + [""] + shown.lines
  }

  /// `scroll` kept between the first line and the last screenful.
  static func clampedScroll(_ scroll: Int, card: PreparedCard, width: Int, height: Int) -> Int {
    let last = lines(card, width: width).count - visibleRows(height: height)
    return min(max(scroll, 0), max(last, 0))
  }

  static func draw(
    _ view: FullCardView, types: [String: CardType], into grid: inout CellGrid, palette: Palette
  ) {
    let type = types[view.card.card.type] ?? CardType(name: view.card.card.type)
    let left = (grid.width - textWidth(width: grid.width)) / 2
    grid.draw(
      " " + Untrusted.line(type.label) + " ", row: 0, column: left,
      style: palette.label(type.colour))
    let all = lines(view.card, width: grid.width)
    let rows = visibleRows(height: grid.height)
    let range = view.scroll..<min(view.scroll + rows, all.count)
    let titleRows = CardScreen.titleLineCount(
      PreparedCard(card: view.card.card, layout: CardLayout(lines: all, truncated: false)))
    for index in range {
      grid.draw(
        all[index], row: textTop + index - view.scroll, column: left,
        style: index < titleRows ? palette.title : .plain)
    }
    guard all.count > rows else { return }
    let position = "\(range.lowerBound + 1)-\(range.upperBound) of \(all.count)"
    grid.drawChrome(position, row: 0, column: grid.width - 1 - position.count, style: palette.quiet)
  }
}
