import CardText
import Glibc
import Testing

@testable import Terminal

/// A crash restores the terminal: a child process opens a session on a pseudo-terminal that
/// this process watches, then traps.
@Suite(.timeLimit(.minutes(2))) struct CrashRestoreTests {
  @Test func aSwiftTrapRestoresTheTerminalBeforeDying() async throws {
    let pty = PseudoTerminal(width: 40, height: 10)
    defer { pty.close() }
    var before = termios()
    tcgetattr(pty.slave, &before)
    let path = String(cString: ttyname(pty.slave))
    await #expect(processExitsWith: .signal(SIGILL)) { [path = path as String] in
      let fd = open(path, O_RDWR | O_NOCTTY)
      let session = try TerminalSession.open(
        input: fd, output: fd, term: "xterm-256color", colour: true)
      var grid = CellGrid(width: 40, height: 10)
      grid.put("about to crash", row: 0, column: 0)
      session.draw(grid)
      fatalError("a deliberate trap")
    }
    var after = termios()
    tcgetattr(pty.slave, &after)
    #expect(after.c_lflag == before.c_lflag)
    let restored = pty.waitForOutput { output in
      let text = String(decoding: output, as: UTF8.self)
      guard let drawn = text.range(of: "about to crash") else { return false }
      return text[drawn.upperBound...].contains("\u{1B}[?1049l\u{1B}[23;0;0t\u{1B}[?12l\u{1B}[?25h")
    }
    #expect(restored, "left the alternate screen and showed the cursor")
  }
}
