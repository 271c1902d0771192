import FeedCore
import Store
import Testing

/// The app's side of undo, as the run loop does it: the pure window in memory, every change
/// written to the state database.
struct UndoSession {
  let state: StateStore
  private(set) var window: UndoWindow
  private(set) var launchEffects: [UndoEffect]
  private(set) var shown: HistoryEntry?
  private var clock = 1_000.0

  init(_ home: TestHome, _ configuration: UndoConfiguration) throws {
    state = home.state
    (window, launchEffects) = try state.launchUndo(configuration: configuration, time: 1)
  }

  /// Shows a card: its history row is written, and numbered by the store.
  mutating func show(_ id: String, type: String = "fact") throws {
    let record = ShownRecord(cardID: id, type: type, title: nil, shownAt: tick())
    let indices = try state.apply(StateChange(shown: [record], time: record.shownAt))
    shown = record.entry(at: try #require(indices.first))
  }

  /// Swipes the shown card, and shows `next` in the same transaction.
  mutating func swipe(_ direction: SwipeDirection, next: (id: String, type: String)? = nil) throws {
    guard let current = shown else { return }
    let tombstone = Tombstone(
      historyIndex: current.index, cardID: current.cardID, type: current.type, direction: direction)
    let time = tick()
    let record = next.map { ShownRecord(cardID: $0.id, type: $0.type, title: nil, shownAt: time) }
    let indices = try state.apply(
      StateChange(effects: window.swipe(tombstone), shown: record.map { [$0] } ?? [], time: time))
    shown = try record.map { $0.entry(at: try #require(indices.first)) }
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

  private mutating func tick() -> Double {
    clock += 1
    return clock
  }
}
