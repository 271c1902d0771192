import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// Every screen at 80x24, 40x12 and 200x60, compared with the files under Snapshots/.
@Suite struct SnapshotTests {
  let snapshots = Snapshot(besides: #filePath)

  static let sizes = [(80, 24), (40, 12), (200, 60)]

  private func render(_ state: AppState, colour: Bool = true) -> CellGrid {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: colour)
    return grid
  }

  @Test(arguments: sizes) func cardScreens(width: Int, height: Int) {
    for (name, card) in [
      ("card-ascii", Fixtures.asciiCard), ("card-cjk", Fixtures.cjkCard),
      ("card-emoji", Fixtures.emojiCard),
    ] {
      let state = Fixtures.showing(card, width: width, height: height)
      snapshots.assert(render(state), named: name)
    }
  }

  @Test(arguments: sizes) func cardWithoutColour(width: Int, height: Int) {
    let state = Fixtures.showing(Fixtures.cjkCard, width: width, height: height)
    snapshots.assert(render(state, colour: false), named: "card-no-colour")
  }

  @Test(arguments: sizes) func slideOutFrames(width: Int, height: Int) {
    for direction in SwipeDirection.allCases {
      var state = Fixtures.showing(Fixtures.emojiCard, width: width, height: height)
      _ = state.reduce(.key(direction == .right ? .right : direction == .left ? .left : .up))
      _ = state.reduce(.frame)
      snapshots.assert(render(state), named: "slide-\(direction.rawValue)-frame1")
    }
  }

  @Test(arguments: sizes) func placeholderAndUnavailable(width: Int, height: Int) {
    var state = AppState(width: width, height: height)
    snapshots.assert(render(state), named: "loading")
    state.feed = .unavailable("Every enabled type is empty or failing: 単語 has no cards 😢")
    snapshots.assert(render(state), named: "unavailable")
  }

  @Test(arguments: sizes) func settings(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    _ = state.reduce(
      .settingsLoaded(
        Fixtures.statuses(),
        problems: ["deck words.jsonl line 3: unknown type \"x\u{1b}[31m\"", "b"]))
    _ = state.reduce(.key(.down))
    _ = state.reduce(.settingChanged(.refused("At least one type must stay enabled")))
    snapshots.assert(render(state), named: "settings")
  }

  @Test(arguments: sizes) func history(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 40), total: 40))
    _ = state.reduce(.key(.down))
    snapshots.assert(render(state), named: "history")
  }

  /// A search found two cards; the prompt is open again with untrusted text typed.
  @Test(arguments: sizes) func historySearch(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    let found = Array(Fixtures.history(count: 40).prefix(2))
    _ = state.reduce(.historyLoaded(found, total: 40, search: "caf\u{1b}[31mé"))
    snapshots.assert(render(state), named: "history-found")
    _ = state.reduce(.key(.character("/")))
    for character in "a long search that ends here" {
      _ = state.reduce(.key(.character(character)))
    }
    snapshots.assert(render(state), named: "history-search-prompt")
  }

  @Test(arguments: sizes) func fullCard(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.emojiCard, width: width, height: height)
    _ = state.reduce(.key(.enter))
    snapshots.assert(render(state), named: "full-card")
  }

  @Test(arguments: sizes) func help(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    _ = state.reduce(.key(.character("?")))
    snapshots.assert(render(state), named: "help")
  }

  /// The stats screen at the three sizes the issue names; in ASCII at 80x24; and the empty
  /// stats of a new home.
  @Test(arguments: [(80, 24), (60, 20), (40, 12)]) func stats(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    #expect(state.reduce(.key(.character("i"))) == [.loadStats])
    _ = state.reduce(.statsLoaded(Fixtures.readingStats))
    snapshots.assert(render(state), named: "stats")
    if width == 80 {
      var ascii = Fixtures.showing(
        Fixtures.asciiCard, width: width, height: height, mark: .ascii, ascii: true)
      _ = ascii.reduce(.statsLoaded(Fixtures.readingStats))
      snapshots.assert(render(ascii), named: "stats-ascii")
      _ = ascii.reduce(.statsLoaded(ReadingStats(swipesByDay: [:], today: 20_420, types: [])))
      snapshots.assert(render(ascii), named: "stats-empty")
    }
  }

  @Test(arguments: sizes) func confirmDialog(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.asciiCard, width: width, height: height)
    _ = state.reduce(.settingsLoaded(Fixtures.statuses(factEnabled: false), problems: []))
    _ = state.reduce(
      .settingChanged(.needsConfirmation("Turning Fact back on clears the undo history. Go on?")))
    snapshots.assert(render(state), named: "confirm")
  }

  @Test(arguments: sizes) func messageLine(width: Int, height: Int) {
    var state = Fixtures.showing(Fixtures.cjkCard, width: width, height: height)
    _ = state.reduce(.undone(nil))
    snapshots.assert(render(state), named: "message")
  }

  @Test func tooSmall() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 15, height: 5)
    snapshots.assert(render(state), named: "too-small")
    _ = state.reduce(.resized(width: Geometry.minimumWidth - 1, height: 24))
    #expect(render(state).lines.joined().contains("Too small"))
    _ = state.reduce(.resized(width: 80, height: Geometry.minimumHeight - 1))
    #expect(render(state).lines.joined().contains("Too small"))
    _ = state.reduce(.resized(width: Geometry.minimumWidth, height: Geometry.minimumHeight))
    #expect(!render(state).lines.joined().contains("Too small"))
  }

  /// Every size down to 1x1 renders without a crash, in every mode, and draws something.
  @Test func everySizeDownToOneByOne() {
    let modes: [AppMode] = [
      .feed, .help(origin: .feed),
      .history(HistoryBrowser(entries: Fixtures.history(count: 5))),
      .settings(SettingsPanel(statuses: Fixtures.statuses(), problems: ["p"])),
      .fullCard(
        FullCardView(
          card: Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24), origin: .feed)),
    ]
    for width in 1...24 {
      for height in 1...8 {
        for mode in modes {
          var state = Fixtures.showing(Fixtures.cjkCard, width: 80, height: 24)
          state.mode = mode
          _ = state.reduce(.resized(width: width, height: height))
          #expect(render(state).lines.joined().contains { $0 != " " })
        }
      }
    }
  }
}
