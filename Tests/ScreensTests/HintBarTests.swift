import App
import CardText
import Screens
import TestFixtures
import Testing

/// What the hint bar offers in the whole view of a card.
@Suite struct HintBarTests {
  private func bar(_ state: AppState) -> String {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: false)
    return grid.lines.last ?? ""
  }

  /// The feed's card swipes from its whole view, and the bar says so; a
  /// card opened from the history does not.
  @Test func theWholeViewOfTheFeedsCardOffersItsSwipes() {
    var state = Fixtures.showing(Fixtures.emojiCard)
    _ = state.reduce(.key(.enter))
    #expect(bar(state).contains("↑↓ scroll  → TFU  ← TIFB"), "\(bar(state))")
    var history = state
    history.mode = .fullCard(
      FullCardView(
        card: Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24),
        origin: .history(HistoryBrowser(entries: []))))
    #expect(!bar(history).contains("TFU"), "\(bar(history))")
  }

  /// The key a click on the bar at `column` presses.
  private func click(_ state: AppState, _ column: Int) -> Key? {
    AppScreen.hintKey(atColumn: column, row: state.height - 1, in: state)
  }

  /// The column where `word` starts on the bar (every character of the bar is one cell).
  private func column(of word: String, in state: AppState) -> Int {
    let text = bar(state)
    return text.distance(from: text.startIndex, to: text.range(of: word)!.lowerBound)
  }

  /// Every item of the bar is pressed by a click on its key or its words, wherever the bar
  /// put it; between items, elsewhere on the screen and under a message nothing is.
  @Test func aClickOnAHintPressesItsKey() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 100)
    state.server = ServerLine(offline: true)
    for (word, key) in [
      ("TFU", Key.right), ("TIFB", .left), ("CTFO", .up), ("history", .down),
      ("undo", .character("u")), ("quit", .character("q")), ("help", .character("?")),
    ] {
      let start = column(of: word, in: state)
      #expect(click(state, start) == key, "\(word)")
      #expect(click(state, start - 2) == key, "the key of \(word)")
      #expect(click(state, start + word.count) != key || word == "TFU", "past \(word)")
    }
    #expect(click(state, 0) == nil)
    #expect(click(state, column(of: "offline", in: state)) == nil)
    #expect(AppScreen.hintKey(atColumn: 2, row: 5, in: state) == nil)
    state.message = "Nothing to undo"
    #expect(click(state, 2) == nil)
  }

  @Test func theBarsOfOtherScreensAndReboundKeys() throws {
    let keys = try KeyBindings(configured: [("swipe-right", ["d"], 1)])
    var state = AppState(width: 80, height: 24, keys: keys)
    state.types = Fixtures.types
    state.feed = .card(
      ShownCard(prepared: Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24), position: 0))
    #expect(click(state, column(of: "TFU", in: state)) == .character("d"))
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    #expect(click(state, column(of: "open", in: state)) == .enter)
    #expect(click(state, column(of: "Esc", in: state)) == .escape)
    #expect(click(state, column(of: "bring back", in: state)) == .character("b"))
    #expect(click(state, column(of: "move", in: state)) == nil, "↑↓ is two keys")
    var prompt = state
    _ = prompt.reduce(.key(.character("/")))
    #expect(click(prompt, 3) == nil, "the search prompt is no hint")
  }

  /// The dragged card is drawn where the pointer took it, and the bar says what letting go
  /// does once it is past a third.
  @Test func theDraggedCardMovesWithThePointer() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let frame = state.cardFrame!
    func corner() -> Int? {
      var grid = CellGrid(width: state.width, height: state.height)
      AppScreen.render(state, into: &grid, colour: false)
      let row = grid.lines[frame.top]
      return row.firstIndex(of: "┌").map { row.distance(from: row.startIndex, to: $0) }
    }
    #expect(corner() == frame.left)
    let middle = frame.left + frame.width / 2
    _ = state.reduce(.mouse(MouseEvent(.press, column: middle, row: frame.top + 1)))
    _ = state.reduce(.mouse(MouseEvent(.drag, column: middle + 6, row: frame.top + 1)))
    #expect(corner() == frame.left + 6)
    _ = state.reduce(.mouse(MouseEvent(.drag, column: 0, row: frame.top + 1)))
    #expect(bar(state).contains("Let go to swipe left: TIFB"), "\(bar(state))")
    // Let go past a third to the right: the slide-out goes on from there, not from the middle.
    let past = frame.width / 3 + 2
    _ = state.reduce(.mouse(MouseEvent(.drag, column: middle + past, row: frame.top + 1)))
    _ = state.reduce(.mouse(MouseEvent(.release, column: middle + past, row: frame.top + 1)))
    #expect(state.slide != nil)
    #expect((corner() ?? 0) > frame.left + past, "the first frame starts where the card was let go")
  }
}
