import App
import CardPreparation
import CardText
import FeedCore
import Screens

@testable import Terminal

/// Mouse reports and keys as the terminal sends them, through the session's decoding
/// (`KeyDecoder`, `KeySequences`, `TerminalSession.coalesced`) into the app's reducer, the
/// screen drawn after every report, resize and slide-out frame, and once at the end (a key
/// moves no place on it; drawing after each only slowed the fuzzer). The first two bytes give
/// the screen's size; each later byte is a character as `wget_wch` returns it, except 0, which
/// makes the next byte a function key (`KEY_MOUSE` puts an SGR report's start, `KEY_RESIZE`
/// gives the screen another size). A card is always on the feed.
///
/// Checks that nothing traps, that no report has a place left of or above the screen, that a
/// press or a move leaves the pointer on the screen, and that the dragged card keeps a cell on
/// it.
enum MouseHarness {
  /// ncurses's first function-key code (`KEY_MIN`), `KEY_MOUSE` and `KEY_RESIZE`.
  static let keyMin: UInt32 = 0o401
  static let keyMouse: UInt32 = 0o631
  static let keyResize: UInt32 = 0o632

  /// What terminfo's `kmous` puts before a report's rest when ncurses names its start.
  static let mouseStart: [InputEvent] = [
    .key(.escape), .key(.character("[")), .key(.character("<")),
  ]

  static let card = Card(
    id: "fuzz-1", type: "fact", title: "A card to drag",
    body: "Dragged past every edge, pressed on its border, let go off the screen.",
    source: "ctfo-fuzz")

  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 2 else { return }
    var size = (width: 20 + Int(bytes[0]) % 140, height: 8 + Int(bytes[1]) % 50)
    var events: [InputEvent] = []
    var rest = bytes.dropFirst(2)
    while let byte = rest.popFirst() {
      var value = UInt32(byte)
      var isKeyCode = false
      if byte == 0, let next = rest.popFirst() {
        (value, isKeyCode) = (keyMin + UInt32(next), true)
      }
      switch KeyDecoder.decode(value, isKeyCode: isKeyCode) {
      case .event(let event): events.append(event)
      case .mouseReport: events += mouseStart
      case .suspend: events.append(.resumed)
      }
    }
    var state = AppState(width: size.width, height: size.height)
    show(&state)
    var resizes = 0
    for event in TerminalSession.coalesced(KeySequences.folded(events)) {
      switch event {
      case .key(let key):
        _ = state.reduce(.key(key))
        show(&state)
        continue
      case .mouse(let report):
        precondition(report.column >= 0 && report.row >= 0, "a report off the screen: \(report)")
        // A press on the hint bar is its key, as the run loop makes it.
        if report.kind == .press,
          let key = AppScreen.hintKey(atColumn: report.column, row: report.row, in: state)
        {
          _ = state.reduce(.key(key))
        } else {
          _ = state.reduce(.mouse(report))
        }
        if report.kind == .press || report.kind == .drag, let pointer = state.pointer {
          precondition(
            (0..<state.width).contains(pointer.column)
              && (0..<state.height).contains(pointer.row),
            "the pointer off a \(state.width)x\(state.height) screen: \(pointer)")
        }
      case .resize:
        resizes += 1
        size = (20 + resizes * 37 % 140, 8 + resizes * 13 % 50)
        _ = state.reduce(.resized(width: size.width, height: size.height))
      case .wake, .resumed, .terminate: continue
      }
      check(state)
      draw(state)
      if state.isAnimating {
        _ = state.reduce(.frame)
        draw(state)
      }
      show(&state)
    }
    draw(state)
  }

  /// The card on the feed again when a swipe or another screen took it away.
  private static func show(_ state: inout AppState) {
    if case .card = state.feed { return }
    let area = Geometry.textArea(width: state.width, height: state.height)
    let prepared = Preparation.laidOut(Preparation.sanitized(card), for: area, mark: .ellipsis)
    state.feed = .card(ShownCard(prepared: prepared, position: 0))
  }

  /// At least a cell of the dragged card on the screen, after a resize too.
  private static func check(_ state: AppState) {
    if let offset = state.dragOffset, let frame = state.cardFrame {
      let moved = frame.offset(dx: offset.dx, dy: offset.dy)
      precondition(
        moved.left < state.width && moved.right > 0 && moved.bottom >= 0
          && moved.top < state.height,
        "the dragged card off a \(state.width)x\(state.height) screen: \(moved)")
    }
  }

  private static func draw(_ state: AppState) {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
  }
}
