import CNcursesw
import CardText
import Glibc

/// The terminfo side of opening a session: checking the terminal type, the bytes that restore the
/// terminal after a crash, and the curses modes.
enum TerminalType {
  /// What terminfo says of a terminal: the bytes that take it back to the shell's state, and
  /// the start of its mouse reports (`kmous`), nil when it names none.
  struct Probe {
    var reset: [UInt8]
    var mouseStart: [UInt8]?
  }

  /// Checks with `setupterm` (which reports instead of exiting) that `term` is known and can
  /// address the cursor.
  static func probe(_ term: String, output: Int32) throws(TerminalError) -> Probe {
    var status: Int32 = 0
    guard setupterm(term, output, &status) == OK, status == 1 else {
      throw .unusableTerm(term)
    }
    defer { cnc_drop_current_terminal() }
    guard cnc_can_address_cursor() != 0 else { throw .unusableTerm(term) }
    let mouseStart = cnc_tigetstr("kmous").map { Array(String(cString: $0).utf8) }
    return Probe(
      reset: resetSequence(), mouseStart: mouseStart?.isEmpty == false ? mouseStart : nil)
  }

  /// Mouse reporting on: presses and releases (1000), moves while a button is held (1002),
  /// in the SGR form (1006). `mouseOff` turns it off in the opposite order.
  static let mouseOn = Array("\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h".utf8)
  static let mouseOff = Array("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l".utf8)

  /// Leave the alternate screen, show the cursor, plain attributes, keypad back to normal.
  static func resetSequence() -> [UInt8] {
    let names = ["rmcup", "cnorm", "sgr0", "rmkx"]
    return names.flatMap { (name: String) -> [UInt8] in
      cnc_tigetstr(name).map { withoutPadding(Array(String(cString: $0).utf8)) } ?? []
    }
  }

  /// Drops terminfo padding (`$<5>`), which only `tputs` understands.
  static func withoutPadding(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "<"),
        let close = bytes[index...].firstIndex(of: UInt8(ascii: ">"))
      {
        index = close + 1
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  /// Streams on duplicates of the descriptors, so that closing them leaves the caller's open.
  static func files(
    input: Int32, output: Int32
  ) -> (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)? {
    guard let inFile = fdopen(dup(input), "r") else { return nil }
    guard let outFile = fdopen(dup(output), "w") else {
      fclose(inFile)
      return nil
    }
    return (inFile, outFile)
  }

  /// Raw keys without echo, a short escape delay (`set_escdelay`), no cursor; returns a
  /// full-screen window that reads keys without blocking (poll(2) does the waiting).
  static func configure() -> UnsafeMutablePointer<WINDOW> {
    raw()
    noecho()
    nonl()
    set_escdelay(25)
    // Without this, doupdate polls the keyboard while it writes and postpones the rest of a
    // frame when a key is waiting: every frame is drawn whole instead.
    typeahead(-1)
    curs_set(0)
    let window = newwin(0, 0, 0, 0)!
    keypad(window, true)
    nodelay(window, true)
    leaveok(window, true)
    scrollok(window, false)
    // ncurses 6.4 flushes its output after every cursor move until the screen has been through
    // endwin once (`_endwin` stays ewInitial after newterm): a frame would leave in dozens of
    // writes. One endwin-and-resume here lets every doupdate write its frame in one go.
    endwin()
    doupdate()
    restoreKeypadTransmit(window)
    return window
  }

  /// endwin also left keypad-transmit mode, and ncurses turns it back on only at the next read:
  /// an arrow typed before that arrives in the other mode (ESC [ C) and decodes as Escape.
  /// One read now (nodelay: it returns at once) sends smkx; a key it finds is put back.
  private static func restoreKeypadTransmit(_ window: UnsafeMutablePointer<WINDOW>) {
    var pending: wint_t = 0
    switch wget_wch(window, &pending) {
    case KEY_CODE_YES: ungetch(Int32(pending))
    case OK: unget_wch(wchar_t(pending))
    default: break
    }
  }

  /// Starts colours with the terminal's own background, one pair per `TerminalColour`.
  /// False when the terminal has none.
  static func startColours() -> Bool {
    guard has_colors(), start_color() == OK else { return false }
    let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
    for colour in TerminalColour.allCases {
      init_pair(pair(of: colour), number(of: colour), background)
    }
    return true
  }

  /// The colour pair of a colour, as `startColours` set them up.
  static func pair(of colour: TerminalColour) -> Int16 {
    number(of: colour) + 1
  }

  /// The curses number of a colour.
  static func number(of colour: TerminalColour) -> Int16 {
    let number =
      switch colour {
      case .black: COLOR_BLACK
      case .red: COLOR_RED
      case .green: COLOR_GREEN
      case .yellow: COLOR_YELLOW
      case .blue: COLOR_BLUE
      case .magenta: COLOR_MAGENTA
      case .cyan: COLOR_CYAN
      case .white: COLOR_WHITE
      }
    return Int16(number)
  }
}
