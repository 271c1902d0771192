import App
import FeedCore
import TestFixtures
import Testing

/// config.toml's `[keys]`: names of actions and keys, each key doing one thing, and the app
/// acting on the keys bound.
@Suite struct KeyBindingsTests {
  private func bindings(_ lines: [(String, [String])]) throws(KeyBindingProblem) -> KeyBindings {
    try KeyBindings(configured: lines.enumerated().map { ($1.0, $1.1, $0 + 2) })
  }

  private func problem(_ lines: [(String, [String])]) -> KeyBindingProblem? {
    do {
      _ = try bindings(lines)
      return nil
    } catch {
      return error
    }
  }

  @Test func theDefaultsAreTheKeysOfTheHelp() {
    let keys = KeyBindings.standard
    #expect(keys.keys(for: .swipeRight) == [.right, .character("l")])
    #expect(keys.action(for: .backspace) == .undo)
    #expect(keys.action(for: .character("/")) == .search)
    #expect(keys.action(for: .character("x")) == nil)
  }

  @Test func aBindingReplacesTheActionsKeysAndNamesIgnoreCase() throws {
    let keys = try bindings([
      ("swipe-right", ["d", "RIGHT"]), ("quit", ["C-x"]), ("history", ["PageDown", "End"]),
    ])
    #expect(keys.keys(for: .swipeRight) == [.character("d"), .right])
    #expect(keys.action(for: .character("l")) == nil)
    #expect(keys.keys(for: .quit) == [.control("x")])
    #expect(keys.action(for: .character("q")) == nil)
    #expect(keys.keys(for: .history) == [.pageDown, .end])
    #expect(keys.keys(for: .swipeLeft) == KeyBindings.standard.keys(for: .swipeLeft))
  }

  @Test(arguments: [
    ([("swipe-rigth", ["l"])], 2, "unknown action 'swipe-rigth'; the actions are swipe-right,"),
    ([("quit", ["Quit"])], 2, "unknown key 'Quit'; a key is one character"),
    ([("quit", [" "])], 2, "unknown key ' '"), ([("quit", ["\u{1b}"])], 2, "unknown key ''"),
    ([("quit", ["e\u{301}"])], 2, "unknown key"), ([("quit", [])], 2, "at least one key"),
    ([("quit", ["C-c"])], 2, "Ctrl-C always quits"), ([("undo", ["C-i"])], 2, "as Tab"),
    ([("undo", ["s"])], 2, "'s' is bound to settings too by default"),
    ([("undo", ["x"]), ("settings", ["x"])], 3, "'x' is bound to undo too"),
    ([("undo", ["x", "x"])], 2, "'x' is given twice"),
  ])
  func aWrongBindingIsRefusedWithItsLine(
    lines: [(String, [String])], line: Int, words: String
  ) {
    let found = problem(lines)
    #expect(found?.line == line, "\(String(describing: found))")
    #expect(found?.message.contains(words) == true, "\(String(describing: found))")
  }

  @Test func movingADefaultKeyAwayFreesIt() throws {
    let keys = try bindings([("settings", ["S"]), ("undo", ["s", "u"])])
    #expect(keys.action(for: .character("s")) == .undo)
  }

  @Test func theAppActsOnTheKeysBoundAndCtrlCAlwaysQuits() throws {
    let keys = try bindings([("swipe-right", ["d"]), ("quit", ["x"]), ("help", ["F"])])
    let card = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
    var state = AppState(width: 80, height: 24, keys: keys)
    _ = state.reduce(.dealt(.card(card), position: 0))
    _ = state.reduce(.drawn)
    #expect(state.reduce(.key(.character("l"))) == [])
    #expect(state.reduce(.key(.character("q"))) == [])
    #expect(state.reduce(.key(.character("x"))) == [.quit])
    #expect(state.reduce(.key(.control("c"))) == [.quit])
    #expect(state.reduce(.key(.character("F"))) == [])
    #expect(state.mode == .help(origin: .feed))
    _ = state.reduce(.key(.character("F")))
    #expect(state.mode == .feed)
    #expect(state.reduce(.key(.character("d"))) == [.swipe(card, .right), .takeNext])
  }

  @Test func theHelpShowsTheKeysBound() throws {
    let keys = try bindings([("swipe-right", ["d", "Right"]), ("quit", ["C-x"])])
    let lines = HelpText.lines(keys)
    #expect(lines.first { $0.action == "swipe right: TFU, liked it" }?.keys == "d  →")
    #expect(lines.first { $0.action == "quit" }?.keys == "Ctrl-X  Ctrl-C")
    #expect(lines.count == HelpText.lineCount)
  }
}
