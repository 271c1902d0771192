import App
import CardText
import Screens
import Terminal

/// Where the run loop shows the app and takes its events from: the full screen (curses), or
/// plain lines (`--linear`, `LinearDisplay`).
protocol AppDisplay: AnyObject {
  /// The screen's size, for the layout of the cards.
  var size: (width: Int, height: Int) { get }
  /// Whether mouse reports come with the keys.
  var reportsMouse: Bool { get }
  /// Blocks until keys, signals or a wake-up come, at most `milliseconds` when given.
  func events(wakeFD: Int32, milliseconds: Int?) -> [InputEvent]
  /// Shows what the machine holds now.
  func show(_ machine: AppMachine)
  /// The terminal was taken from the display (a suspend): it repaints in full.
  func invalidate()
  /// Puts `text` on the terminal's clipboard (OSC 52).
  func copyToClipboard(_ text: String)
  /// Gives the terminal back while `body` runs (a browser started on it).
  func whileSuspended<T>(_ body: () -> T) -> T
  /// Restores the terminal.
  func close()
}

extension TerminalSession: AppDisplay {
  func events(wakeFD: Int32, milliseconds: Int?) -> [InputEvent] {
    guard let milliseconds else { return waitForEvents(wakeFD: wakeFD) }
    return waitForEvents(wakeFD: wakeFD, milliseconds: milliseconds)
  }

  func show(_ machine: AppMachine) {
    var grid = CellGrid(width: machine.screen.width, height: machine.screen.height)
    AppScreen.render(machine.screen, into: &grid, colour: hasColour)
    draw(grid)
  }
}
