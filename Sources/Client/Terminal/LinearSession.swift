import App
import Glibc

/// The terminal of `ctfo --linear`: no curses, no escape sequence ever written. Keys are read
/// in the terminal's raw mode (no echo, a key at a time) and decoded as the full-screen session
/// decodes them; lines are written as they are, for a screen reader or `script` to read in
/// order. Signals reach the loop through the same self-pipe; a crash restores the modes.
public final class LinearSession {
  let input: Int32
  let output: Int32
  let signals: SignalRoute
  private let saved: termios
  private var isOpen = true
  /// Bytes of a UTF-8 character split between two reads.
  private var partial: [UInt8] = []

  /// Puts `input` (a terminal) in raw mode and routes the signals; throws when it is no
  /// terminal.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
    var modes = termios()
    guard isatty(input) == 1, tcgetattr(input, &modes) == 0 else { throw .notATerminal }
    guard let route = SignalRoute(tty: input, output: output, reset: []) else {
      throw .notATerminal
    }
    self.input = input
    self.output = output
    signals = route
    saved = modes
    Self.raw(input, from: modes)
  }

  deinit { close() }

  private static func raw(_ input: Int32, from modes: termios) {
    var raw = modes
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    // Not TCSAFLUSH: keys typed before the app started (a screen-reader user types ahead)
    // are read, not discarded.
    tcsetattr(input, TCSANOW, &raw)
  }

  /// Writes `lines`, each ended by a newline.
  public func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    writeAll(Array(lines.map { $0 + "\n" }.joined().utf8), to: output)
  }

  /// Blocks until keys, a signal or a wake-up come (at most `milliseconds` when given).
  public func waitForEvents(wakeFD: Int32, milliseconds: Int? = nil) -> [InputEvent] {
    var fds = [input, signals.readFD, wakeFD].map {
      pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
    }
    let timeout = Int32(clamping: milliseconds ?? -1)
    while true {
      let ready = poll(&fds, nfds_t(fds.count), timeout)
      if ready < 0 && errno == EINTR { continue }
      var events: [InputEvent] = []
      if fds[1].revents & Int16(POLLIN) != 0 { events += signalEvents() }
      if fds[2].revents & Int16(POLLIN) != 0 {
        var buffer = [UInt8](repeating: 0, count: 256)
        _ = read(wakeFD, &buffer, buffer.count)
        events.append(.wake)
      }
      if fds[0].revents & Int16(POLLIN) != 0 { events += keyEvents() }
      if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { events.append(.terminate) }
      if !events.isEmpty || timeout >= 0 { return TerminalSession.coalesced(events) }
    }
  }

  private func signalEvents() -> [InputEvent] {
    signals.drain().compactMap { signal in
      switch signal {
      case SIGTSTP:
        var modes = saved
        tcsetattr(input, TCSAFLUSH, &modes)
        signals.stopProcessGroup()
        Self.raw(input, from: saved)
        return nil
      case SIGTERM, SIGHUP, SIGINT: return .terminate
      default: return nil
      }
    }
  }

  /// The keys of one read: UTF-8 decoded, each code point as the full-screen session decodes
  /// it, escape sequences of cursor keys folded.
  private func keyEvents() -> [InputEvent] {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(input, &buffer, buffer.count)
    guard count > 0 else { return count == 0 ? [.terminate] : [] }
    let bytes = partial + buffer[0..<count]
    let (scalars, rest) = Self.decode(bytes)
    partial = rest
    let events = scalars.compactMap { value -> InputEvent? in
      switch KeyDecoder.character(value) {
      case .event(let event): event
      case .suspend, .mouseReport: nil
      }
    }
    return KeySequences.folded(events)
  }

  /// The code points of `bytes`, and the bytes of a character that is not complete yet.
  static func decode(_ bytes: [UInt8]) -> (scalars: [UInt32], rest: [UInt8]) {
    var scalars: [UInt32] = []
    var i = 0
    while i < bytes.count {
      let lead = bytes[i]
      let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 1
      guard i + length <= bytes.count else { return (scalars, Array(bytes[i...])) }
      var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
      for byte in bytes[(i + 1)..<(i + length)] { value = value << 6 | UInt32(byte & 0x3F) }
      scalars.append(value)
      i += length
    }
    return (scalars, [])
  }

  /// Gives the terminal its own modes back while `body` runs (a browser started on it).
  public func whileCooked<T>(_ body: () -> T) -> T {
    var modes = saved
    tcsetattr(input, TCSAFLUSH, &modes)
    defer { Self.raw(input, from: saved) }
    return body()
  }

  /// Restores the terminal's modes and the signals. Safe to call twice.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    var modes = saved
    tcsetattr(input, TCSAFLUSH, &modes)
    signals.close()
  }
}
