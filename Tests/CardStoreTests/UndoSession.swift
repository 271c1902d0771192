import CardStore
import FeedCore

/// The app's side of undo, as the run loop does it: the pure window in memory, every change
/// written to the state database.
struct UndoSession {
  let state: StateStore
  private(set) var window: UndoWindow
  private(set) var launchEffects: [UndoEffect]
  private(set) var shown: HistoryEntry?
  private var nextIndex: Int
  private var clock = 1_000.0

  init(_ home: TestHome, _ configuration: UndoConfiguration) throws {
    state = home.state
    (window, launchEffects) = try state.launchUndo(configuration: configuration, time: 1)
    nextIndex = try state.nextHistoryIndex()
  }

  /// Shows a card: its history row is written.
  mutating func show(_ id: String, type: String = "fact") throws {
    let entry = makeEntry(id, type: type)
    try state.apply(StateChange(shown: [entry], time: tick()))
    shown = entry
  }

  /// Swipes the shown card, and shows `next` in the same transaction.
  mutating func swipe(_ direction: SwipeDirection, next: (id: String, type: String)? = nil) throws {
    guard let current = shown else { return }
    let tombstone = Tombstone(
      historyIndex: current.index, cardID: current.cardID, type: current.type, direction: direction)
    let entry = next.map { makeEntry($0.id, type: $0.type) }
    try state.apply(
      StateChange(effects: window.swipe(tombstone), shown: entry.map { [$0] } ?? [], time: tick()))
    shown = entry
  }

  /// Undoes the last swipe; returns the tombstone brought back.
  mutating func undo() throws -> Tombstone? {
    let effects = window.undo()
    try state.apply(StateChange(effects: effects, time: tick()))
    guard case .restore(let tombstone) = effects.first else { return nil }
    return tombstone
  }

  /// A collection replacement with these enabled types; returns its effects.
  mutating func replace(enabled: Set<String>) throws -> [UndoEffect] {
    let effects = window.replaceCollection(enabledTypes: enabled)
    try state.apply(StateChange(effects: effects, time: tick()))
    return effects
  }

  mutating func answer(_ yes: Bool) throws -> [UndoEffect] {
    let effects = window.answerReplacement(yes)
    try state.apply(StateChange(effects: effects, time: tick()))
    return effects
  }

  private mutating func makeEntry(_ id: String, type: String) -> HistoryEntry {
    defer { nextIndex += 1 }
    return HistoryEntry(index: nextIndex, cardID: id, type: type, title: nil, shownAt: clock)
  }

  private mutating func tick() -> Double {
    clock += 1
    return clock
  }
}
