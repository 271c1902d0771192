import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// Untrusted text cut to fit one line ends with the truncation mark, never mid-word unmarked.
@Suite struct ClippedTextTests {
  private func rows(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
    return grid.lines
  }

  private let longSource = Card(
    id: "d1", type: "fact", title: "Merriam", body: "A dictionary.",
    source: "Merriam-Webster Collegiate Dictionary")

  @Test func aCutSourceLineEndsWithTheMark() {
    let state = Fixtures.showing(longSource, width: 20, height: 6)
    let footer = rows(state).first { $0.contains("#8") }
    #expect(footer?.contains("│ Merriam-We… #8 │") == true, "\(rows(state))")
  }

  @Test func cutHistoryTitlesAndLabelsEndWithTheMark() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
    state.types["fact"] = CardType(name: "fact", label: "Fact of the natural world", colour: nil)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 3))
    let fact = rows(state).first { $0.contains("Octopuses") } ?? ""
    #expect(fact.contains("Fact of the n… "), "\(fact)")
    #expect(fact.contains("Octopuses have t… TFU"), "\(fact)")
  }

  @Test func theMarkIsTheOneTheStateCarries() {
    let state = Fixtures.showing(longSource, width: 20, height: 6, mark: .ascii)
    let footer = rows(state).first { $0.contains("#8") }
    #expect(footer?.contains("│ Merriam-... #8 │") == true, "\(rows(state))")
  }

  @Test func cutSettingsLabelsEndWithTheMark() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
    let long = CardType(name: "fact", label: "Facts about the natural world", colour: nil)
    let statuses = [TypeStatus(type: long, cards: 3, enabled: true, failing: false)]
    _ = state.reduce(.settingsLoaded(statuses, problems: []))
    let row = rows(state).first { $0.contains("Facts") } ?? ""
    #expect(row.contains("Facts about the natural…"), "\(row)")
  }
}

/// The history title counts every card, not only those the view loaded.
@Suite struct HistoryCountTests {
  @Test func theTitleSaysHowManyCardsTheHistoryHolds() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 80, height: 24)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 3), total: 2_000_057))
    var grid = CellGrid(width: 80, height: 24)
    AppScreen.render(state, into: &grid, colour: true)
    #expect(grid.lines[0].contains("History (2000057 cards, newest first)"), "\(grid.lines[0])")
  }
}

/// A type label too long for the card's top edge ends with the mark too.
@Suite struct ClippedLabelTests {
  @Test func aCutTypeLabelOnTheCardEndsWithTheMark() {
    var state = Fixtures.showing(Fixtures.asciiCard, width: 20, height: 6)
    state.types["fact"] = CardType(name: "fact", label: "Facts of the natural world", colour: nil)
    var grid = CellGrid(width: 20, height: 6)
    AppScreen.render(state, into: &grid, colour: true)
    #expect(grid.lines[0].contains("┌─ Facts of th… ─┐"), "\(grid.lines)")
  }
}

/// The screen's edge is no cut: a card sliding off it shows no mark.
@Suite struct SlidingClipTests {
  @Test func aCardSlidingOffTheScreenShowsNoMark() {
    for frames in 0..<SlideOut.frames - 1 {
      var state = Fixtures.showing(Fixtures.asciiCard, width: 40, height: 12)
      _ = state.reduce(.key(.right))
      for _ in 0..<frames { _ = state.reduce(.frame) }
      var grid = CellGrid(width: 40, height: 12)
      AppScreen.render(state, into: &grid, colour: true)
      #expect(!grid.lines.joined().contains("…"), "frame \(frames): \(grid.lines)")
    }
  }
}
