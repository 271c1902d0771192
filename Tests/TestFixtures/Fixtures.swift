import App
import CardPreparation
import CardText
import FeedCore

/// Cards and states the tests share: ASCII, CJK and emoji text.
public enum Fixtures {
  public static let fact = CardType(name: "fact", label: "Fact", colour: "cyan")
  public static let word = CardType(name: "word", label: "単語 Word", colour: "magenta")
  public static let joke = CardType(name: "joke", label: "Joke 😂", colour: nil)
  public static let types = [fact.name: fact, word.name: word, joke.name: joke]

  public static let asciiCard = Card(
    id: "f1", type: "fact", title: "Octopuses have three hearts",
    body: "Two pump blood through the gills and one through the rest of the body; the third "
      + "stops while the octopus swims, which is why they prefer crawling.",
    source: "Smithsonian Ocean")
  public static let cjkCard = Card(
    id: "w1", type: "word", title: "木漏れ日 komorebi",
    body: "木々の葉の間から差し込む日の光。 Sunlight filtering through the leaves of trees, "
      + "a word with no single English equivalent.",
    source: "日本語辞典")
  public static let emojiCard = Card(
    id: "j1", type: "joke", title: "Why did the 🐔 cross the road?",
    body: "To get to the other side 🎉 and then 🚀 straight back again.",
    reveal: "Because the 🐓 told it to.")

  /// A card laid out as the pipeline would for a terminal of `width` x `height`: greedy
  /// wrapping by display width, so snapshots do not depend on CardLayout's details.
  public static func prepared(_ card: Card, width: Int, height: Int) -> PreparedCard {
    let area = Geometry.textArea(width: width, height: height)
    var lines = Array(wrap(card.title ?? "", width: area.width).prefix(2)) + [""]
    lines += wrap(card.body, width: area.width)
    let truncated = lines.count > area.height
    if truncated { lines = Array(lines.prefix(area.height)) }
    return PreparedCard(card: card, layout: CardLayout(lines: lines, truncated: truncated))
  }

  /// Greedy wrapping at spaces; a word wider than the line is cut by clusters.
  public static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if DisplayWidth.of(candidate) <= width {
        line = candidate
        continue
      }
      if !line.isEmpty { lines.append(line) }
      line = ""
      for cluster in word {
        if DisplayWidth.of(line) + DisplayWidth.of(cluster) > width {
          lines.append(line)
          line = ""
        }
        line.append(cluster)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  public static func statuses(factEnabled: Bool = true) -> [TypeStatus] {
    [
      TypeStatus(type: fact, cards: 120, enabled: factEnabled, failing: false),
      TypeStatus(type: word, cards: 1, enabled: true, failing: false),
      TypeStatus(type: joke, cards: 0, enabled: true, failing: true),
    ]
  }

  public static func history(count: Int) -> [HistoryEntry] {
    let cards = [asciiCard, cjkCard, emojiCard]
    return (0..<count).map { i in
      let card = cards[i % cards.count]
      return HistoryEntry(
        index: i, cardID: card.id, type: card.type, title: card.title, shownAt: Double(i),
        reaction: i % 4 == 3 ? nil : SwipeDirection.allCases[i % 3].reaction)
    }
  }

  /// A reader's stats with known numbers: two weeks of swipes ending 2025-11-28 (a Friday)
  /// with a 3-day streak, and the three types, the word's label CJK, the joke's an emoji.
  public static let readingStats = ReadingStats(
    swipesByDay: [20_407: 2, 20_410: 9, 20_411: 1, 20_414: 4, 20_418: 12, 20_419: 5, 20_420: 3],
    today: 20_420,
    types: [
      ReadingStats.TypeLine(
        type: "fact", label: "Fact", ctfo: 6, tfu: 9, tifb: 3, unswiped: 2, seenThisRound: 45,
        cards: 120),
      ReadingStats.TypeLine(
        type: "word", label: "単語 Word", ctfo: 1, tfu: 2, tifb: 6, seenThisRound: 9, cards: 40),
      ReadingStats.TypeLine(
        type: "joke", label: "Joke 😂", ctfo: 5, tfu: 2, tifb: 1, unswiped: 1, seenThisRound: 8,
        cards: 8),
      ReadingStats.TypeLine(type: "tip", label: "Tip", seenThisRound: 0, cards: 30),
    ])

  /// A state showing `card` on the feed at position 7, drawn on screen.
  public static func showing(
    _ card: Card, width: Int = 80, height: Int = 24, mark: TruncationMark = .ellipsis,
    motion: Motion = .full, clipboard: Bool = true, ascii: Bool = false
  ) -> AppState {
    var state = AppState(
      width: width, height: height, mark: mark, motion: motion, clipboard: clipboard,
      ascii: ascii)
    state.types = types
    state.feed = .card(
      ShownCard(prepared: prepared(card, width: width, height: height), position: 7))
    _ = state.reduce(.drawn)
    return state
  }
}
