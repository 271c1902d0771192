import Testing

@testable import Terminal

extension TerminalSessionTests {
  /// The first arrow typed after the app starts must arrive in keypad-transmit mode (ESC O C),
  /// the form curses decodes as an arrow: after open, the terminal's last keypad switch is
  /// "on" (xterm's smkx, ESC [ ? 1 h ESC =), not "off" (rmkx, ESC [ ? 1 l ESC >).
  @Test func theTerminalIsLeftInKeypadTransmitModeAfterOpen() throws {
    let on = Array("\u{1B}[?1h\u{1B}=".utf8)
    let off = Array("\u{1B}[?1l\u{1B}>".utf8)
    try withSession { _, pty in
      let settled = pty.waitForOutput { written in
        guard let lastOn = written.lastRange(of: on) else { return false }
        return written.lastRange(of: off).map { $0.lowerBound < lastOn.lowerBound } ?? true
      }
      #expect(settled, "keypad transmit is off after open: the first arrow would decode as Esc")
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func lastRange(of needle: [UInt8]) -> Range<Int>? {
    guard count >= needle.count else { return nil }
    for start in stride(from: count - needle.count, through: 0, by: -1)
    where self[start..<start + needle.count].elementsEqual(needle) {
      return start..<start + needle.count
    }
    return nil
  }
}
