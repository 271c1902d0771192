import FeedCore
import CardPreparation
import CardText

/// Where each screen puts its text: the sizes the state depends on (the text area the feed lays
/// cards out to, the rows a list shows, how far the whole card scrolls), in one place that the
/// reducer and the renderers both read.
///
///     Geometry.textArea(width: 80, height: 24)  // TextArea(width: 72, height: 18)
public enum Geometry {
  /// The smallest terminal anything but the "too small" message is drawn on.
  public static let minimumWidth = 20
  public static let minimumHeight = 6
  /// The widest body text: about 72 columns reads well.
  public static let maxTextWidth = 72
  /// The tallest body text: a card is short, and a taller box would be mostly empty.
  public static let maxTextHeight = 18
  /// Rows and columns the card's box adds around the text: borders, padding and the footer.
  public static let chromeWidth = 4
  public static let chromeHeight = 3
  /// The first row of the history and settings lists, and of the whole card's text.
  public static let listTop = 2
  /// Rows under the settings list: a blank row, the deck problems, the hint bar.
  public static let settingsRowsBelow = 3

  /// True when a terminal of `width` x `height` shows the screens; below it, no card or list is
  /// visible, and only quit, help and resize act.
  public static func fits(width: Int, height: Int) -> Bool {
    width >= minimumWidth && height >= minimumHeight
  }

  /// The body text area for a terminal of `width` x `height`: what the feed lays cards out to.
  public static func textArea(width: Int, height: Int) -> TextArea {
    let w = min(maxTextWidth, width - 2 - chromeWidth)
    let h = min(maxTextHeight, height - 1 - chromeHeight)
    return TextArea(width: w, height: h)
  }

  /// The fewest text rows a card's box has, so the placeholder and one-line cards look like
  /// cards.
  public static let minCardTextRows = 3

  /// The feed's box for a card of `lines` text rows, with a blank row under them when there is
  /// room, centred above the hint bar.
  public static func cardFrame(lines: Int, width: Int, height: Int) -> BoxFrame {
    let area = textArea(width: width, height: height)
    let rows = min(max(lines + 1, minCardTextRows), area.height)
    let box = (width: area.width + chromeWidth, height: rows + chromeHeight)
    return BoxFrame(
      left: (width - box.width) / 2, top: max((height - 1 - box.height) / 2, 0),
      width: box.width, height: box.height)
  }

  /// How many history entries fit on a screen `height` rows tall.
  public static func historyRows(height: Int) -> Int { max(height - listTop - 1, 1) }

  /// How many types the settings list shows on a screen `height` rows tall.
  public static func settingsRows(height: Int) -> Int {
    max(height - listTop - settingsRowsBelow, 1)
  }

  /// How many text rows of the whole card fit on a screen `height` rows tall.
  public static func fullCardRows(height: Int) -> Int { max(height - listTop - 1, 1) }

  /// How many lines of the key list fit on a help screen `height` rows tall: as many as of
  /// the whole card, the other scrolled text.
  public static func helpRows(height: Int) -> Int { fullCardRows(height: height) }

  /// `scroll` kept between the first line and the last screenful of the key list.
  public static func clampedHelpScroll(_ scroll: Int, height: Int) -> Int {
    clamped(scroll, lines: HelpText.lineCount, rows: helpRows(height: height))
  }

  /// Rows of the stats' day chart's bars.
  public static let statsChartRows = 4
  /// Below this width a type of the stats takes two rows: its reactions, then its liked rate
  /// and round.
  public static let statsOneRowWidth = 60

  /// The types the stats list: those the decks hold and those ever shown.
  public static func statsTypes(_ stats: ReadingStats) -> [ReadingStats.TypeLine] {
    stats.types.filter { $0.cards > 0 || $0.swipes + $0.unswiped > 0 }
  }

  /// How many rows the stats take `width` columns wide: the summary, the streak and a blank
  /// row, the day chart (heading, blank, bars, weekdays, dates), a blank row, the table's
  /// heading and its types; one row when nothing was shown yet.
  public static func statsRows(_ stats: ReadingStats, width: Int) -> Int {
    guard stats.shown > 0 else { return 1 }
    let perType = width >= statsOneRowWidth ? 1 : 2
    return 3 + (2 + statsChartRows + 2) + 1 + 1 + statsTypes(stats).count * perType
  }

  /// `scroll` kept between the first row of the stats and their last screenful.
  public static func clampedStatsScroll(
    _ scroll: Int, stats: ReadingStats, width: Int, height: Int
  ) -> Int {
    clamped(scroll, lines: statsRows(stats, width: width), rows: fullCardRows(height: height))
  }

  /// `scroll` kept between the first of `lines` and their last screenful of `rows`.
  static func clamped(_ scroll: Int, lines: Int, rows: Int) -> Int {
    min(max(scroll, 0), max(lines - rows, 0))
  }

  /// The whole card's text width on a screen `width` columns wide.
  public static func fullCardWidth(width: Int) -> Int { max(min(maxTextWidth, width - 4), 1) }

  /// The whole card laid out to the screen's text width: title, body, the reveal, then the
  /// source and the link (sanitised when the card was prepared), each part after a blank line.
  public static func fullCardLines(_ card: PreparedCard, width: Int) -> [String] {
    let w = fullCardWidth(width: width)
    let main = CardLayout.layout(
      title: card.card.title, body: card.card.body, width: w, height: .max)
    let source = [card.card.citedSource, card.card.url].compactMap { $0 }.filter { !$0.isEmpty }
    let parts = [card.card.reveal ?? "", source.joined(separator: "\n"), card.card.why ?? ""]
      .filter { !$0.isEmpty }
    return parts.reduce(main.lines) { lines, part in
      lines + [""] + CardLayout.layout(title: nil, body: part, width: w, height: .max).lines
    }
  }

  /// `scroll` kept between the first line and the last screenful of the whole card.
  public static func clampedScroll(
    _ scroll: Int, card: PreparedCard, width: Int, height: Int
  ) -> Int {
    clamped(
      scroll, lines: fullCardLines(card, width: width).count, rows: fullCardRows(height: height))
  }
}
