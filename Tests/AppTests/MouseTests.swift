import App
import FeedCore
import TestFixtures
import Testing

/// The mouse on the app's screens: the card dragged past a third of its width or height is
/// swiped, short of it it settles back, a click opens it; lists take clicks and the wheel.
@Suite struct MouseTests {
  private func press(_ kind: MouseEvent.Kind, _ column: Int, _ row: Int) -> AppAction {
    .mouse(MouseEvent(kind, column: column, row: row))
  }

  /// Drags the card from its middle by `dx`, `dy` in `steps` moves, then lets go; returns the
  /// effects of letting go.
  private func drag(
    _ state: inout AppState, dx: Int, dy: Int, steps: Int = 4
  ) -> [AppEffect] {
    let frame = state.cardFrame!
    let (x, y) = (frame.left + frame.width / 2, frame.top + frame.height / 2)
    #expect(state.reduce(press(.press, x, y)) == [])
    for step in 1...steps {
      #expect(state.reduce(press(.drag, x + dx * step / steps, y + dy * step / steps)) == [])
    }
    return state.reduce(press(.release, x + dx, y + dy))
  }

  @Test(arguments: [
    (1, 0, SwipeDirection.right), (-1, 0, .left), (0, -1, .up),
  ])
  func aDragPastAThirdSwipesThatWay(across: Int, up: Int, direction: SwipeDirection) {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let card = state.cardFrame!
    let dx = across * (card.width / 3 + 1)
    let dy = up * (card.height / 3 + 1)
    let shown = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
    #expect(drag(&state, dx: dx, dy: dy) == [.swipe(shown, direction), .takeNext])
    #expect(state.pointer == nil)
    #expect([state.slide?.startColumn, state.slide?.startRow] == [dx, dy], "slides on from there")
  }

  @Test func shortOfAThirdOrDownwardTheCardSettlesBack() {
    let frame = Fixtures.showing(Fixtures.asciiCard).cardFrame!
    let third = (frame.width / 3, frame.height / 3)  // a third exactly is not past it
    for (dx, dy) in [(5, 0), (-5, 0), (0, -1), (0, 3), (0, 12), (third.0, 0), (0, -third.1)] {
      var state = Fixtures.showing(Fixtures.asciiCard)
      #expect(drag(&state, dx: dx, dy: dy) == [])
      #expect(state.mode == .feed)
      #expect(state.dragOffset == nil, "settled back")
      #expect(state.cardFrame != nil)
    }
  }

  @Test func theCardFollowsThePointerAndTheHintBarSaysWhatLettingGoDoes() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let frame = state.cardFrame!
    let (x, y) = (frame.left + 3, frame.top + 2)
    _ = state.reduce(press(.press, x, y))
    _ = state.reduce(press(.drag, x + 4, y + 2))
    #expect(state.dragOffset! == (4, 0), "never downward")
    #expect(state.dragHint == nil)
    _ = state.reduce(press(.drag, x + frame.width / 3 + 1, y))
    #expect(state.dragHint == "Let go to swipe right: TFU, liked it")
  }

  @Test func aClickOnTheCardOpensItAsEnterDoes() {
    var clicked = Fixtures.showing(Fixtures.emojiCard)
    var entered = clicked
    let frame = clicked.cardFrame!
    _ = clicked.reduce(press(.press, frame.left + 5, frame.top + 1))
    _ = clicked.reduce(press(.release, frame.left + 6, frame.top + 1))
    _ = entered.reduce(.key(.enter))
    #expect(clicked.mode == entered.mode)
    guard case .fullCard = clicked.mode else {
      Issue.record("the whole card opens")
      return
    }
  }

  @Test func offTheCardAPressDragsNothing() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let frame = state.cardFrame!
    _ = state.reduce(press(.press, 0, 0))
    _ = state.reduce(press(.drag, frame.width, 0))
    #expect(state.dragOffset == nil)
    #expect(state.reduce(press(.release, frame.width, 0)) == [])
    #expect(state.reduce(press(.release, 40, 10)) == [], "a release with no press is nothing")
  }

  @Test func thePlaceholderAndATinyTerminalTakeNoDrag() {
    var loading = AppState(width: 80, height: 24)
    _ = loading.reduce(press(.press, 40, 10))
    #expect(loading.reduce(press(.release, 79, 10)) == [])
    var tiny = Fixtures.showing(Fixtures.asciiCard, width: 10, height: 4)
    _ = tiny.reduce(press(.press, 5, 2))
    #expect(tiny.reduce(press(.release, 9, 2)) == [])
    #expect(tiny.pointer == nil)
  }

  @Test func pointsFarOffTheScreenAreHarmless() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let frame = state.cardFrame!
    _ = state.reduce(press(.press, frame.left + 1, frame.top + 1))
    _ = state.reduce(press(.drag, 999_998, -5))
    #expect(state.dragOffset != nil)
    _ = state.reduce(press(.drag, Int.min, Int.max))
    #expect(state.reduce(press(.release, Int.max, Int.min)).count == 2, "a swipe, no trap")
  }

  /// A terminal reports a drag past the screen's edge as it is: the pointer stops at the edge,
  /// and the card keeps a cell on the screen, after a resize too.
  @Test func aDragPastAnEdgeStopsAtIt() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let frame = state.cardFrame!
    let row = frame.top + 1
    _ = state.reduce(press(.press, 39, row))
    _ = state.reduce(press(.drag, 119, row))
    #expect([state.pointer?.column, state.pointer?.row] == [79, row])
    #expect(state.dragOffset! == (40, 0))
    _ = state.reduce(press(.drag, -7, -3))
    #expect([state.pointer?.column, state.pointer?.row] == [0, 0])
    // Held from the card's left edge to the screen's right one, on a screen that shrinks.
    _ = state.reduce(press(.press, frame.left + 1, row))
    _ = state.reduce(press(.drag, 79, row))
    _ = state.reduce(.resized(width: 60, height: 20))
    let small = state.cardFrame!
    let offset = state.dragOffset!
    #expect(small.left + offset.dx == 59 && small.bottom + offset.dy >= 0, "\(offset)")
    _ = state.reduce(press(.release, 500, row))
    #expect(state.slide?.direction == .right)
    #expect(small.left + state.slide!.startColumn < 60, "the slide starts on the screen")
  }

  @Test func inTheHistoryAClickSelectsAndASecondOpens() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 5), total: 5))
    let row = 2 + 3  // the list starts on row 2
    _ = state.reduce(press(.press, 10, row))
    #expect(state.reduce(press(.release, 10, row)) == [])
    guard case .history(let browser) = state.mode else {
      Issue.record("the history shows")
      return
    }
    #expect(browser.viewport.selection == 3)
    _ = state.reduce(press(.press, 10, row))
    let entry = browser.entries[3]
    #expect(state.reduce(press(.release, 10, row)) == [.openCard(id: entry.cardID)])
    _ = state.reduce(press(.press, 10, 20))
    #expect(state.reduce(press(.release, 10, 20)) == [], "no entry on that row")
  }

  @Test func theWheelMovesListsAndScrollsTextButNotTheFeed() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    #expect(state.reduce(press(.wheelDown, 40, 10)) == [])
    #expect(state.mode == .feed)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 5), total: 5))
    _ = state.reduce(press(.wheelDown, 40, 10))
    _ = state.reduce(press(.wheelDown, 40, 10))
    _ = state.reduce(press(.wheelUp, 40, 10))
    guard case .history(let browser) = state.mode else {
      Issue.record("the history shows")
      return
    }
    #expect(browser.viewport.selection == 1)

    var help = Fixtures.showing(Fixtures.asciiCard, height: 10)
    _ = help.reduce(.key(.character("?")))
    _ = help.reduce(press(.wheelDown, 40, 5))
    #expect(help.mode == .help(origin: .feed, scroll: 3))
  }

  @Test func inTheSettingsAClickOnTheSelectedTypeTogglesIt() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.settingsLoaded(Fixtures.statuses(), problems: []))
    _ = state.reduce(press(.press, 5, 3))
    #expect(state.reduce(press(.release, 5, 3)) == [])
    _ = state.reduce(press(.press, 5, 3))
    #expect(
      state.reduce(press(.release, 5, 3)) == [
        .setEnabled(type: "word", enabled: false, confirmed: false)
      ])
  }

  @Test func theHelpSaysWhatTheMouseDoesWhenItIsOn() {
    let on = HelpText.lines(.standard, mouse: true)
    let off = HelpText.lines(.standard)
    #expect(on.count == HelpText.lineCount && off.count == HelpText.lineCount)
    #expect(on.contains { $0.keys == "mouse" && $0.action.contains("drag the card to swipe") })
    #expect(!off.contains { $0.keys == "mouse" })
  }
}
