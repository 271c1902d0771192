import App
import CNcursesw
import CardText
import Glibc
import Testing

@testable import Terminal

/// The real session on a pseudo-terminal. Serialized: curses is one state per process.
@Suite(.serialized) struct TerminalSessionTests {
  static let term = "xterm-256color"

  /// Opens a session on a fresh pseudo-terminal, runs body, and closes both.
  func withSession(
    width: Int = 80, height: Int = 24, colour: Bool = true,
    _ body: (TerminalSession, PseudoTerminal) throws -> Void
  ) throws {
    let pty = PseudoTerminal(width: width, height: height)
    defer { pty.close() }
    let session = try TerminalSession.open(
      input: pty.slave, output: pty.slave, term: Self.term, colour: colour)
    defer { session.close() }
    try body(session, pty)
  }

  @Test func refusesWhatIsNotATerminal() {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    #expect(throws: TerminalError.notATerminal) {
      try TerminalSession.open(input: ends[0], output: ends[1], term: Self.term, colour: true)
    }
  }

  @Test(arguments: [nil, ""]) func refusesAMissingTerm(term: String?) {
    let pty = PseudoTerminal(width: 80, height: 24)
    defer { pty.close() }
    #expect(throws: TerminalError.noTerm) {
      try TerminalSession.open(input: pty.slave, output: pty.slave, term: term, colour: true)
    }
  }

  @Test(arguments: ["no-such-terminal", "dumb"]) func refusesAnUnusableTerm(term: String) {
    let pty = PseudoTerminal(width: 80, height: 24)
    defer { pty.close() }
    #expect(throws: TerminalError.unusableTerm(term)) {
      try TerminalSession.open(input: pty.slave, output: pty.slave, term: term, colour: true)
    }
  }

  @Test(arguments: [(80, 24), (40, 12), (200, 60), (3, 2), (2, 1), (1, 1)])
  func drawsEveryCellAtEverySize(width: Int, height: Int) throws {
    try withSession(width: width, height: height) { session, _ in
      #expect(session.size == (width, height))
      let grid = SampleGrid.make(width: width, height: height)
      session.draw(grid)
      expectWindow(of: session, shows: grid)
    }
  }

  @Test func drawsWithoutColourWhenAskedTo() throws {
    try withSession(colour: false) { session, _ in
      #expect(!session.hasColour)
      var grid = CellGrid(width: 80, height: 24)
      grid.put("red", row: 0, column: 0, style: CellStyle(foreground: .red, bold: true))
      session.draw(grid)
      #expect(session.cellInWindow(row: 0, column: 0) == ("r", CellStyle(bold: true)))
    }
  }

  @Test func sendsOnlyTheCellsThatChanged() throws {
    try withSession { session, pty in
      let grid = SampleGrid.make(width: 80, height: 24)
      session.draw(grid)
      let same = pty.output { session.draw(grid) }.count
      var changed = grid
      changed.put("Z", row: 10, column: 40)
      let one = pty.output { session.draw(changed) }.count
      #expect(same == 0)
      #expect(one > 0 && one < 32)
      #expect(session.cellInWindow(row: 10, column: 40).text == "Z")
    }
  }

  /// setcchar keeps one spacing character: a cluster of several (a flag, a vowel sign, Hangul
  /// jamo) is drawn one cell per spacing character, and its pieces leave in one run.
  @Test(
    arguments: [
      ("flag 🇬🇧 here│", 5, ["🇬", "🇧"]),
      ("ka का│", 3, ["क", "ा"]),
      ("ksha क्ष│", 5, ["क्", "ष"]),
      ("jamo \u{1100}\u{1100}│", 5, ["\u{1100}", "\u{1100}"]),
    ] as [(String, Int, [String])])
  func drawsEveryPieceOfAClusterAndKeepsTheBorder(text: String, column: Int, pieces: [String])
    throws
  {
    try withSession(width: 20, height: 3) { session, pty in
      var grid = CellGrid(width: 20, height: 3)
      let end = grid.put(text, row: 1, column: 0)
      let written = String(decoding: pty.output { session.draw(grid) }, as: UTF8.self)
      #expect(written.contains(pieces.joined()))
      var piece = column
      for text in pieces {
        #expect(session.cellInWindow(row: 1, column: piece).text == text)
        piece += DisplayWidth.of(text)
      }
      #expect(session.cellInWindow(row: 1, column: end - 1).text == "│")
      expectWindow(of: session, shows: grid)
    }
  }

  /// What the layout measured is what curses is given: for every sanitised cluster of a sample
  /// of all code points (alone, after a letter, a consonant, an emoji) and of the sequences
  /// terminals disagree on, the pieces take as many cells as `DisplayWidth` says.
  @Test func piecesTakeTheCellsTheLayoutMeasured() throws {
    try withSession { _, _ in
      var texts = [
        "🇬🇧🇫🇷", "🇫", "क्षि", "स्त्र", "काा", "\u{1100}\u{1161}\u{11A8}", "\u{1100}\u{1100}",
        "1\u{FE0F}\u{20E3}",
      ]
      for value in stride(from: UInt32(0), through: 0x10FFFF, by: 37) {
        guard let scalar = Unicode.Scalar(value) else { continue }
        texts += ["", "a", "क", "👍"].map { $0 + String(scalar) }
      }
      for cluster in texts.flatMap({ Array(Sanitizer.sanitize($0)) }) {
        let width = DisplayWidth.of(cluster)
        guard width > 0 else { continue }
        let pieces = TerminalSession.pieces(of: cluster)
        let scalars = cluster.unicodeScalars.map(\.value)
        #expect(pieces.reduce(0) { $0 + $1.width } == width, "\(scalars)")
        #expect(pieces.allSatisfy { $0.characters.count <= CCHARW_MAX })
      }
    }
  }

  @Test func aChangedClusterLeavesWholeEvenWhereAPieceIsTheSame() throws {
    try withSession(width: 20, height: 3) { session, pty in
      var grid = CellGrid(width: 20, height: 3)
      grid.put("a 🇫🇷 b", row: 0, column: 0)
      session.draw(grid)
      grid.put("a 🇫🇧 b", row: 0, column: 0)
      let second = String(decoding: pty.output { session.draw(grid) }, as: UTF8.self)
      #expect(second.contains("🇫🇧"))
      grid.put("a 🇬🇧 b", row: 0, column: 0)
      let third = String(decoding: pty.output { session.draw(grid) }, as: UTF8.self)
      #expect(third.contains("🇬🇧"))
      grid.put("ka का", row: 1, column: 0)
      session.draw(grid)
      grid.put("क", row: 1, column: 3)
      let fourth = String(decoding: pty.output { session.draw(grid) }, as: UTF8.self)
      #expect(fourth.contains("ka क"), "a cluster shown in pieces is overwritten whole")
      expectWindow(of: session, shows: grid)
    }
  }

  @Test func invalidateRepaintsEverything() throws {
    try withSession { session, pty in
      let grid = SampleGrid.make(width: 80, height: 24)
      session.draw(grid)
      session.invalidate()
      #expect(pty.output { session.draw(grid) }.count > 80 * 24)
    }
  }

  @Test func decodesTypedKeys() throws {
    try withSession { session, pty in
      pty.type(Array("\u{1B}OC\u{1B}[5~q\r\u{7F}\u{08}日\u{15}".utf8))
      let events = session.waitForEvents(wakeFD: -1, milliseconds: 1000)
      #expect(
        events == [
          .key(.right), .key(.pageUp), .key(.character("q")), .key(.enter), .key(.backspace),
          .key(.backspace), .key(.character("日")), .key(.control("u")),
        ])
    }
  }

  /// `bytes` holds `part` somewhere.
  private func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
    bytes.count >= part.count
      && (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
  }

  /// Where terminfo names mouse reports (`kmous`), the session turns them on, reads them in
  /// SGR form (xterm's `kmous` is their start, screen's is X10's), and turns them off for a
  /// program it hands the terminal to and at close.
  @Test(arguments: ["xterm-256color", "screen"]) func readsTheMouseWhereTheTerminalHasOne(
    term: String
  ) throws {
    let pty = PseudoTerminal(width: 80, height: 24)
    defer { pty.close() }
    let session = try TerminalSession.open(
      input: pty.slave, output: pty.slave, term: term, colour: true, mouse: nil)
    #expect(session.reportsMouse)
    #expect(pty.waitForOutput { contains($0, TerminalType.mouseOn) })
    pty.type(Array("\u{1B}[<0;10;5M\u{1B}[<32;20;5M\u{1B}[<32;30;6M\u{1B}[<0;30;6mq".utf8))
    #expect(
      session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [
        .mouse(MouseEvent(.press, column: 9, row: 4)), .mouse(MouseEvent(.drag, column: 29, row: 5)),
        .mouse(MouseEvent(.release, column: 29, row: 5)), .key(.character("q")),
      ])
    pty.type(Array("\u{1B}[M`!!".utf8))
    #expect(
      session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [
        .mouse(MouseEvent(.wheelUp, column: 0, row: 0))
      ])
    let handedOver = pty.output { session.whileSuspended {} }
    #expect(contains(handedOver, TerminalType.mouseOff))
    #expect(contains(handedOver, TerminalType.mouseOn), "and on again after")
    #expect(contains(pty.output { session.close() }, TerminalType.mouseOff))
  }

  @Test func noMouseWhereTerminfoNamesNoneOrWhenTurnedOff() throws {
    for (term, mouse) in [("vt100", nil), ("xterm-256color", false)] as [(String, Bool?)] {
      let pty = PseudoTerminal(width: 80, height: 24)
      defer { pty.close() }
      let session = try TerminalSession.open(
        input: pty.slave, output: pty.slave, term: term, colour: true, mouse: mouse)
      #expect(!session.reportsMouse)
      session.draw(SampleGrid.make(width: 80, height: 24))
      session.close()
      #expect(!contains(pty.written, Array("\u{1B}[?1000".utf8)), "for \(term)")
    }
  }

  @Test func escapeAloneIsAKeyAndControlCTerminates() throws {
    try withSession { session, pty in
      pty.type([0x1B])
      #expect(session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [.key(.escape)])
      pty.type([0x03])
      #expect(session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [.terminate])
    }
  }

  @Test func wakePipeWakesAndIsDrained() throws {
    try withSession { session, _ in
      let pipe = WakePipe()
      pipe.wake()
      pipe.wake()
      #expect(session.waitForEvents(wakeFD: pipe.fd) == [.wake])
      #expect(session.waitForEvents(wakeFD: pipe.fd, milliseconds: 0) == [])
    }
  }

  @Test func timesOutWithNoEvents() throws {
    try withSession { session, _ in
      #expect(session.waitForEvents(wakeFD: -1, milliseconds: 5) == [])
    }
  }

  @Test func resizesOnSIGWINCH() throws {
    try withSession { session, pty in
      session.draw(SampleGrid.make(width: 80, height: 24))
      pty.resize(width: 30, height: 10)
      kill(getpid(), SIGWINCH)
      #expect(session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [.resize])
      #expect(session.size == (30, 10))
      let grid = SampleGrid.make(width: 30, height: 10)
      session.draw(grid)
      expectWindow(of: session, shows: grid)
    }
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT]) func quitSignalsTerminate(signal: Int32) throws {
    try withSession { session, _ in
      kill(getpid(), signal)
      #expect(session.waitForEvents(wakeFD: -1, milliseconds: 1000) == [.terminate])
    }
  }

  @Test func closeRestoresTheTerminalOnce() throws {
    let pty = PseudoTerminal(width: 80, height: 24)
    defer { pty.close() }
    var before = termios()
    tcgetattr(pty.slave, &before)
    let session = try TerminalSession.open(
      input: pty.slave, output: pty.slave, term: Self.term, colour: true)
    session.draw(SampleGrid.make(width: 80, height: 24))
    let restore = pty.output { session.close() } + pty.output { session.close() }
    var after = termios()
    tcgetattr(pty.slave, &after)
    #expect(after.c_lflag == before.c_lflag)
    let text = String(decoding: restore, as: UTF8.self)
    #expect(text.contains("\u{1B}[?1049l"), "leaves the alternate screen")
    #expect(text.contains("\u{1B}[?25h"), "shows the cursor")
  }

  /// Every cell of the grid, read back from curses.
  func expectWindow(
    of session: TerminalSession, shows grid: CellGrid,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for row in 0..<grid.height {
      for column in 0..<grid.width {
        guard let cluster = grid[row, column].cluster else { continue }
        let cell = session.clusterInWindow(
          row: row, column: column, width: DisplayWidth.of(cluster))
        #expect(cell.text == String(cluster), "\(row),\(column)", sourceLocation: sourceLocation)
        #expect(cell.style == grid[row, column].style, sourceLocation: sourceLocation)
      }
    }
  }
}
