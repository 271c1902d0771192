import App
import CNcursesw
import CardText
import Glibc

/// The curses session: the only place that talks to the terminal.
///
/// Opened once by the run loop and used from that one thread:
///
///     let session = try TerminalSession.open()
///     defer { session.close() }
///     session.draw(grid)
///     for event in session.waitForEvents(wakeFD: wakePipe.fd) { ... }
public final class TerminalSession {
  let screen: OpaquePointer
  let window: UnsafeMutablePointer<WINDOW>
  let input: Int32
  let signals: SignalRoute
  let files: (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)
  /// The grid on screen, for diffing; nil when the next draw must repaint everything.
  var shown: CellGrid?
  /// Set while stopped by our own Ctrl-Z, whose SIGCONT needs no second repaint.
  var continuesOwnStop = false
  private var isOpen = true
  /// Whether the terminal reports the mouse to the app (turned on at open, off at close and
  /// while suspended).
  public let reportsMouse: Bool
  /// The events ncurses stands for by `KEY_MOUSE`: terminfo's `kmous` (`ESC [ <`), put back in
  /// front of the rest of the report it starts.
  let mouseStart: [InputEvent]

  /// False under NO_COLOR or on a terminal without colours: bold and reverse carry the meaning.
  public let hasColour: Bool

  init(
    screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, input: Int32, signals: SignalRoute,
    files: (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>),
    hasColour: Bool, reportsMouse: Bool, mouseStart: [InputEvent]
  ) {
    self.reportsMouse = reportsMouse
    self.mouseStart = mouseStart
    self.screen = screen
    self.window = window
    self.input = input
    self.signals = signals
    self.files = files
    self.hasColour = hasColour
  }

  deinit { close() }

  /// Opens the session on the process's terminal, after `setlocale(LC_ALL, "")`: keys from
  /// `input` (standard input, or `/dev/tty` when standard input is a pipe of cards). `mouse`
  /// turns mouse reports on or off; nil turns them on where terminfo names them (`kmous`).
  /// Throws when `input`/stdout is not a terminal, TERM is unset or unusable, or the locale is
  /// not UTF-8 (after trying C.UTF-8).
  public static func open(
    input: Int32 = STDIN_FILENO, mouse: Bool? = nil
  ) throws(TerminalError) -> TerminalSession {
    let noColour = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
    let term = getenv("TERM").map { String(cString: $0) }
    return try open(
      input: input, output: STDOUT_FILENO, term: term, colour: !noColour, mouse: mouse)
  }

  /// Opens a session on any terminal device: `input` and `output` may be one pseudo-terminal.
  public static func open(
    input: Int32, output: Int32, term: String?, colour: Bool, mouse: Bool? = false
  ) throws(TerminalError) -> TerminalSession {
    guard isatty(input) == 1, isatty(output) == 1 else { throw .notATerminal }
    guard let term, !term.isEmpty else { throw .noTerm }
    try TerminalLocale.adoptUTF8()
    let probe = try TerminalType.probe(term, output: output)
    let reportsMouse = mouse ?? (probe.mouseStart != nil)
    let reset = probe.reset + (reportsMouse ? TerminalType.mouseOff : [])
    guard let signals = SignalRoute(tty: input, output: output, reset: reset) else {
      throw .unusableTerm(term)
    }
    guard let files = TerminalType.files(input: input, output: output),
      let screen = newterm(term, files.output, files.input)
    else {
      signals.close()
      throw .unusableTerm(term)
    }
    let window = TerminalType.configure()
    let hasColour = colour && TerminalType.startColours()
    // ncurses returns KEY_MOUSE only where terminfo names `kmous`.
    let mouseStart = (probe.mouseStart ?? []).map { byte in
      KeyDecoder.character(UInt32(byte)).event ?? .key(.unknown)
    }
    let session = TerminalSession(
      screen: screen, window: window, input: input, signals: signals, files: files,
      hasColour: hasColour, reportsMouse: reportsMouse, mouseStart: mouseStart)
    session.setMouseReports(on: true)
    return session
  }

  /// Turns the terminal's mouse reports on or off, when the session uses them: written past
  /// curses, between two frames.
  func setMouseReports(on: Bool) {
    guard reportsMouse else { return }
    writeAll(on ? TerminalType.mouseOn : TerminalType.mouseOff, to: fileno(files.output))
  }

  /// Columns and lines of the terminal now.
  public var size: (width: Int, height: Int) {
    var rows: Int32 = 0
    var cols: Int32 = 0
    cnc_getmaxyx(window, &rows, &cols)
    return (Int(cols), Int(rows))
  }

  /// Forces the next `draw` to repaint everything (after Ctrl-Z).
  public func invalidate() {
    shown = nil
    clearok(window, true)
  }

  /// Restores the terminal. Safe to call twice.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    set_term(screen)
    setMouseReports(on: false)
    endwin()
    delwin(window)
    delscreen(screen)
    fclose(files.output)
    fclose(files.input)
    signals.close()
  }

  /// Leaves curses, stops the process group, and returns with the screen restored and repainted.
  func suspend() {
    setMouseReports(on: false)
    endwin()
    continuesOwnStop = true
    signals.stopProcessGroup()
    resume()
  }

  /// Takes the terminal back after a stop: curses modes, the size now, a full repaint.
  func resume() {
    setMouseReports(on: true)
    applyTerminalSize()
    invalidate()
    wnoutrefresh(window)
    doupdate()
  }

  /// Gives the terminal back as it was before curses while `body` runs (a browser, which may be
  /// a terminal one), then takes it again with a full repaint.
  public func whileSuspended<T>(_ body: () -> T) -> T {
    setMouseReports(on: false)
    endwin()
    defer { resume() }
    return body()
  }

  /// Resizes curses and the window to the terminal's size now.
  func applyTerminalSize() {
    var rows: Int32 = 0
    var cols: Int32 = 0
    guard cnc_window_size(input, &rows, &cols) == 0, rows > 0, cols > 0 else { return }
    resizeterm(rows, cols)
    wresize(window, rows, cols)
    shown = nil
  }
}
