import CNcursesw
import CardText

/// The curses session: the only place that talks to the terminal.
///
/// STUB: the signatures the app is written against; the Terminal issue fills them in.
public final class TerminalSession {
  /// Opens the session on the process's terminal, after `setlocale(LC_ALL, "")`.
  /// Throws when stdin/stdout is not a terminal, TERM is unset or unusable, or the locale is
  /// not UTF-8 (after trying C.UTF-8).
  public static func open() throws(TerminalError) -> TerminalSession { TerminalSession() }

  /// Columns and lines of the terminal now.
  public var size: (width: Int, height: Int) { (80, 24) }

  /// False under NO_COLOR or on a terminal without colours: bold and reverse carry the meaning.
  public var hasColour: Bool { false }

  /// Draws a grid: only the cells that changed since the last draw are sent.
  public func draw(_ grid: CellGrid) {}

  /// Forces the next `draw` to repaint everything (after Ctrl-Z).
  public func invalidate() {}

  /// Blocks in poll(2) on the terminal and on `wakeFD` until something happens; returns every
  /// event that is pending. No timeout: an idle app uses no CPU.
  public func waitForEvents(wakeFD: Int32) -> [InputEvent] { [] }

  /// Like `waitForEvents`, but returns an empty array after `milliseconds` (for the swipe
  /// animation's frames).
  public func waitForEvents(wakeFD: Int32, milliseconds: Int) -> [InputEvent] { [] }

  /// Restores the terminal. Safe to call twice.
  public func close() {}
}
