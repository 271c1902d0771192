import App

/// Mouse reports among the keys: xterm's SGR form (mode 1006, `ESC [ < B ; X ; Y M` for a
/// press or a move, `... m` for a release) and the older X10 form (`ESC [ M` and three
/// characters, each a number plus 32), which terminals without 1006 (GNU screen) send.
///
/// They reach the session as the characters of their bytes (ncurses knows none of them as a
/// key), or, where terminfo's `kmous` names their start, as `KEY_MOUSE` and the rest: the
/// session puts `kmous` back in front, so both arrive here alike.
///
///     MouseReports.report(at: 0, in: events("\u{1B}[<0;11;5M"))
///     // (.mouse(MouseEvent(.press, column: 10, row: 4)), 10)
enum MouseReports {
  /// The most digits a number of a report has: more is not a report.
  private static let maxDigits = 6

  /// The report starting at `i`: its event (nil for a button or move the app does not use)
  /// and how many events it takes. Nil when no complete report starts there.
  static func report(at i: Int, in events: [InputEvent]) -> (InputEvent?, Int)? {
    guard case .introducer(let form) = start(at: i, in: events) else { return nil }
    switch form {
    case .sgr: return sgr(at: i + 3, in: events)
    case .x10: return x10(at: i + 3, in: events)
    }
  }

  /// Where `events` end in the start of a report whose rest has not arrived yet: the session
  /// reads on a moment for it, and drops it if it never comes. Nil when they do not.
  static func partialReportStart(_ events: [InputEvent]) -> Int? {
    guard let escape = events.lastIndex(of: .key(.escape)) else { return nil }
    let rest = events[min(escape + 3, events.count)...]
    switch start(at: escape, in: events) {
    case .introducer(.x10): return rest.count < 3 ? escape : nil
    case .introducer(.sgr):
      let partial = rest.allSatisfy {
        character(of: $0).map { $0 == ";" || $0.isASCIIDigit } ?? false
      }
      return partial && rest.count <= 3 * (maxDigits + 1) ? escape : nil
    case .none: return nil
    }
  }

  /// True when the rest of a report may still be on its way: `events` end in the start of one,
  /// or in `ESC [`, which ncurses hands over once its escape delay is past.
  static func mayContinue(_ events: [InputEvent]) -> Bool {
    guard partialReportStart(events) == nil else { return true }
    return events.count >= 2 && events[events.count - 2] == .key(.escape)
      && character(of: events[events.count - 1]) == "["
  }

  private enum Form { case sgr, x10 }
  private enum Start { case introducer(Form), none }

  /// `ESC [ <` or `ESC [ M` at `i`.
  private static func start(at i: Int, in events: [InputEvent]) -> Start {
    guard i + 2 < events.count, events[i] == .key(.escape),
      character(of: events[i + 1]) == "["
    else { return .none }
    switch character(of: events[i + 2]) {
    case "<": return .introducer(.sgr)
    case "M": return .introducer(.x10)
    default: return .none
    }
  }

  /// `B ; X ; Y` and `M` or `m`, from `i`.
  private static func sgr(at i: Int, in events: [InputEvent]) -> (InputEvent?, Int)? {
    var numbers: [Int] = []
    var digits = 0
    var value = 0
    var j = i
    while j < events.count {
      // An event that is no character (another escape) ends what is not a report: dropped up
      // to it, so that none of it acts as a key.
      guard let c = character(of: events[j]) else { return (nil, j - i + 3) }
      j += 1
      if let digit = c.wholeNumberValue, c.isASCIIDigit, digits < maxDigits {
        value = value * 10 + digit
        digits += 1
      } else if (c == ";" || c == "M" || c == "m"), digits > 0, numbers.count < 3 {
        numbers.append(value)
        (value, digits) = (0, 0)
        if c == ";" { continue }
        guard numbers.count == 3 else { return (nil, j - i + 3) }
        let event = decode(
          button: numbers[0], column: numbers[1] - 1, row: numbers[2] - 1, released: c == "m")
        return (event.map(InputEvent.mouse), j - i + 3)
      } else {
        // Not a report the terminal could send: dropped through this character.
        return (nil, j - i + 3)
      }
    }
    return nil
  }

  /// Three characters from `i`: the button, the column and the row, each plus 32 (and 1-based).
  private static func x10(at i: Int, in events: [InputEvent]) -> (InputEvent?, Int)? {
    guard i + 2 < events.count else { return nil }
    let values = events[i...(i + 2)].compactMap { character(of: $0)?.unicodeScalars.first?.value }
    guard values.count == 3, values.allSatisfy({ $0 >= 32 }) else { return nil }
    let button = Int(values[0]) - 32
    let released = button & 0b11 == 3 && button & 64 == 0
    let event = decode(
      button: released ? button & ~0b11 : button, column: Int(values[1]) - 33,
      row: Int(values[2]) - 33, released: released)
    return (event.map(InputEvent.mouse), 6)
  }

  /// The event of button code `button` (modifier bits ignored): the left button's press, move
  /// and release, and the wheel; nil for the others. A place left of or above the screen (a
  /// report's 0, which is 1-based) is its first column or row; the app bounds the rest to the
  /// screen it draws.
  static func decode(button: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
    let code = button & ~0b11100  // without Shift, Meta and Control
    let kind: MouseEvent.Kind? =
      switch (code, released) {
      case (0, false): .press
      case (32, false): .drag
      case (0, true): .release
      case (64, false): .wheelUp
      case (65, false): .wheelDown
      default: nil
      }
    return kind.map { MouseEvent($0, column: max(column, 0), row: max(row, 0)) }
  }

  /// The character an event stands for: Space is the character 0x20 here.
  private static func character(of event: InputEvent) -> Character? {
    switch event {
    case .key(.character(let c)): c
    case .key(.space): " "
    default: nil
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
