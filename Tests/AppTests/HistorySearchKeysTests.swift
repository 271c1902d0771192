import App
import FeedCore
import TestFixtures
import Testing

/// `/` in the history view: a prompt in the hint bar takes every character, Enter searches,
/// Esc cancels; with a search applied, Esc lists every card again.
@Suite struct HistorySearchKeysTests {
  /// The history view of 6 cards, opened from the feed.
  private var inHistory: AppState {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 6), total: 6))
    return state
  }

  private func browser(_ state: AppState) -> HistoryBrowser? {
    guard case .history(let browser) = state.mode else { return nil }
    return browser
  }

  private func type(_ text: String, into state: inout AppState) -> [AppEffect] {
    text.flatMap { state.reduce(.key($0 == " " ? .space : .character($0))) }
  }

  @Test func slashOpensAPromptThatTakesEveryCharacterAndEnterSearches() {
    var state = inHistory
    #expect(state.reduce(.key(.character("/"))) == [])
    #expect(browser(state)?.prompt == "")
    #expect(type("qj? ks", into: &state) == [])
    #expect(state.reduce(.key(.backspace)) == [])
    #expect(browser(state)?.prompt == "qj? k")
    #expect(browser(state)?.viewport.selection == 0, "j and k typed, not moved")
    #expect(
      state.reduce(.key(.enter)) == [.loadHistory(limit: AppState.historyLimit, search: "qj? k")])

    let found = Array(Fixtures.history(count: 6).prefix(2))
    _ = state.reduce(.historyLoaded(found, total: 6, search: "qj? k"))
    #expect(browser(state) == HistoryBrowser(entries: found, total: 6, search: "qj? k"))
    #expect(state.reduce(.key(.escape)) == [.loadHistory(limit: AppState.historyLimit)])
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 6), total: 6))
    #expect(browser(state)?.search == nil)
    _ = state.reduce(.key(.escape))
    #expect(state.mode == .feed)
  }

  @Test func escClosesThePromptAndLeavesTheListAsItWas() {
    var state = inHistory
    _ = state.reduce(.key(.character("/")))
    _ = type("oct", into: &state)
    #expect(state.reduce(.key(.escape)) == [])
    #expect(state == inHistory)
  }

  @Test func backspaceOnAnEmptyPromptClosesItAndAnEmptySearchListsEveryCard() {
    var state = inHistory
    _ = state.reduce(.key(.character("/")))
    _ = state.reduce(.key(.backspace))
    #expect(state == inHistory)
    _ = state.reduce(.key(.character("/")))
    #expect(state.reduce(.key(.enter)) == [.loadHistory(limit: AppState.historyLimit)])
  }

  @Test func thePromptTakesNoMoreThanTheLongestSearch() {
    var state = inHistory
    _ = state.reduce(.key(.character("/")))
    _ = type(String(repeating: "x", count: HistoryBrowser.maxSearchLength + 5), into: &state)
    #expect(browser(state)?.prompt?.count == HistoryBrowser.maxSearchLength)
  }

  @Test func ctrlCQuitsFromThePrompt() {
    var state = inHistory
    _ = state.reduce(.key(.character("/")))
    #expect(state.reduce(.key(.control("c"))) == [.quit])
  }
}

/// `Tab` in the history view: all, CTFO, TFU, TIFB, no reaction, and round again; a search
/// keeps the filter and the filter keeps the search.
@Suite struct HistoryFilterKeysTests {
  private func browser(_ state: AppState) -> HistoryBrowser? {
    guard case .history(let browser) = state.mode else { return nil }
    return browser
  }

  @Test func tabGoesRoundTheReactionsAndKeepsTheSearch() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    _ = state.reduce(.historyLoaded(Fixtures.history(count: 6), total: 6))
    var seen: [ReactionFilter] = []
    for _ in 0..<5 {
      let effects = state.reduce(.key(.tab))
      guard case .loadHistory(let limit, nil, let filter) = effects.first, effects.count == 1 else {
        Issue.record("\(effects)")
        return
      }
      #expect(limit == AppState.historyLimit)
      seen.append(filter)
      _ = state.reduce(.historyLoaded([], total: 6, filter: filter))
    }
    #expect(seen == [.ctfo, .tfu, .tifb, .none, .all])
    #expect(ReactionFilter.ctfo.reaction == .some(.ctfo) && ReactionFilter.none.reaction == .some(nil))

    _ = state.reduce(.historyLoaded([], total: 6, search: "oct", filter: .tfu))
    #expect(
      state.reduce(.key(.tab)) == [
        .loadHistory(limit: AppState.historyLimit, search: "oct", filter: .tifb)
      ])
    #expect(state.reduce(.key(.escape)) == [.loadHistory(limit: AppState.historyLimit, filter: .tfu)])
    _ = state.reduce(.key(.character("/")))
    _ = state.reduce(.key(.character("x")))
    #expect(
      state.reduce(.key(.enter)) == [
        .loadHistory(limit: AppState.historyLimit, search: "x", filter: .tfu)
      ])
    #expect(browser(state)?.filter == .tfu)
  }
}
