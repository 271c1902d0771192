import App
import CardText
import FeedCore
import Screens
import TestFixtures
import Testing

/// The feed drawn while the mouse drags its card anywhere, past every edge of the screen, as
/// a terminal reports it, with resizes between.
@Suite struct DragPastTheEdgeTests {
  private func draw(_ state: AppState) -> [String] {
    var grid = CellGrid(width: state.width, height: state.height)
    AppScreen.render(state, into: &grid, colour: true)
    return grid.lines
  }

  /// In an 80x24 terminal, `ESC[<0;40;…M ESC[<32;120;…M`: a press in the middle of the card
  /// and a move far past the right edge, then the slide-out from there.
  @Test func aDragPastTheRightEdgeIsDrawn() {
    var state = Fixtures.showing(Fixtures.asciiCard)
    let row = state.cardFrame!.top + 1
    _ = state.reduce(.mouse(MouseEvent(.press, column: 39, row: row)))
    _ = state.reduce(.mouse(MouseEvent(.drag, column: 119, row: row)))
    #expect(state.dragOffset != nil, "the card follows")
    let lines = draw(state)
    #expect(lines.count == 24)
    _ = state.reduce(.mouse(MouseEvent(.release, column: 119, row: row)))
    for _ in 0..<4 {
      _ = draw(state)
      _ = state.reduce(.frame)
    }
  }

  /// Presses, drags and releases at random places on and off the screen, resizes between:
  /// every frame is drawn, a press or a move leaves the pointer on the screen, and the dragged
  /// card keeps a cell on it.
  @Test(arguments: [1, 2, 3, 44, 2026] as [UInt64])
  func anyDragIsDrawn(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var state = Fixtures.showing(Fixtures.asciiCard)
    let kinds: [MouseEvent.Kind] = [.press, .drag, .drag, .drag, .release, .wheelUp]
    for _ in 0..<400 {
      switch random.next() % 12 {
      case 0:
        _ = state.reduce(
          .resized(width: 20 + Int(random.next() % 200), height: 8 + Int(random.next() % 60)))
      case 1: _ = state.reduce(.frame)
      default:
        let kind = kinds[Int(random.next() % UInt64(kinds.count))]
        let column = Int(random.next() % 600) - 100
        let row = Int(random.next() % 200) - 50
        _ = state.reduce(.mouse(MouseEvent(kind, column: column, row: row)))
        if kind == .press || kind == .drag, let pointer = state.pointer {
          #expect((0..<state.width).contains(pointer.column), "seed \(seed)")
          #expect((0..<state.height).contains(pointer.row), "seed \(seed)")
        }
      }
      if let offset = state.dragOffset, let frame = state.cardFrame {
        let moved = frame.offset(dx: offset.dx, dy: offset.dy)
        #expect(moved.left < state.width && moved.right > 0, "seed \(seed): \(moved)")
        #expect(moved.bottom >= 0 && moved.top < state.height, "seed \(seed): \(moved)")
      }
      _ = draw(state)
      if state.mode != .feed { _ = state.reduce(.key(.escape)) }
      if state.cardFrame == nil, state.mode == .feed {
        let again = Fixtures.showing(Fixtures.asciiCard, width: state.width, height: state.height)
        state.feed = again.feed
      }
    }
  }
}
