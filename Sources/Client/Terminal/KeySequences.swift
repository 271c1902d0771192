import App

/// Cursor keys that reach the app as their escape sequence, byte by byte.
///
/// ncurses decodes only the sequences terminfo lists for the terminal (`ESC O C` for xterm's
/// right arrow in keypad mode); some terminals and multiplexers send the other form (`ESC [ C`)
/// all the same, which then arrives as Escape, `[` and `C`. Both forms are folded into the key
/// they mean when they arrive together in one read. Mouse reports are folded into their event
/// (`MouseReports`); one whose rest never came is dropped.
///
///     KeySequences.folded([.key(.escape), .key(.character("[")), .key(.character("C"))])
///     // [.key(.right)]
enum KeySequences {
  /// `ESC [ X` and `ESC O X`.
  private static let finals: [Character: Key] = [
    "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end,
  ]
  /// `ESC [ N ~`.
  private static let numbered: [Character: Key] = [
    "1": .home, "7": .home, "4": .end, "8": .end, "5": .pageUp, "6": .pageDown,
  ]

  static func folded(_ events: [InputEvent]) -> [InputEvent] {
    var out: [InputEvent] = []
    var i = 0
    while i < events.count {
      if let (event, length) = MouseReports.report(at: i, in: events) {
        if let event { out.append(event) }
        i += length
      } else if let (key, length) = sequence(at: i, in: events) {
        out.append(.key(key))
        i += length
      } else {
        out.append(events[i])
        i += 1
      }
    }
    return MouseReports.partialReportStart(out).map { Array(out[..<$0]) } ?? out
  }

  /// The key of the sequence starting at `i` and how many events it takes, if one does.
  private static func sequence(at i: Int, in events: [InputEvent]) -> (Key, Int)? {
    func character(_ offset: Int) -> Character? {
      guard i + offset < events.count, case .key(.character(let c)) = events[i + offset] else {
        return nil
      }
      return c
    }
    guard case .key(.escape) = events[i], let introducer = character(1),
      introducer == "[" || introducer == "O", let third = character(2)
    else { return nil }
    if let key = finals[third] { return (key, 3) }
    if introducer == "[", let key = numbered[third], character(3) == "~" { return (key, 4) }
    return nil
  }
}
