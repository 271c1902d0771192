import Foundation
import Glibc
import Synchronization

/// A pseudo-terminal for tests: the session opens the slave end, and a thread reads everything
/// written to it from the master end, so that curses never blocks on a full buffer.
final class PseudoTerminal: Sendable {
  let master: Int32
  let slave: Int32
  private let output = Mutex<[UInt8]>([])
  private let reading = DispatchSemaphore(value: 0)
  private let arrived = DispatchSemaphore(value: 0)

  init(width: Int, height: Int) {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    precondition(openpty(&master, &slave, nil, nil, &size) == 0, "openpty failed")
    self.master = master
    self.slave = slave
    Thread.detachNewThread { [self] in readUntilClosed() }
  }

  /// Everything written to the terminal so far.
  var written: [UInt8] { output.withLock { $0 } }

  /// Waits (up to two seconds) until the output ends with `suffix`.
  func waitForOutput(endingWith suffix: [UInt8]) -> Bool {
    waitForOutput { $0.count >= suffix.count && Array($0.suffix(suffix.count)) == suffix }
  }

  /// Waits (up to two seconds) until the output satisfies `condition`.
  func waitForOutput(_ condition: ([UInt8]) -> Bool) -> Bool {
    let deadline = DispatchTime.now() + .seconds(2)
    while !condition(written) {
      if arrived.wait(timeout: deadline) == .timedOut { return condition(written) }
    }
    return true
  }

  /// The bytes that `body` writes to the terminal: a marker written before and after it tells
  /// when the reading thread has seen them all.
  func output(of body: () -> Void) -> [UInt8] {
    let start = sync()
    body()
    let end = sync() - Self.marker.count
    return Array(written[start..<end])
  }

  private static let marker = Array("<sync>".utf8)

  /// Writes a marker and waits until it has been read; returns the count of bytes up to its end.
  private func sync() -> Int {
    let before = written.count
    _ = Self.marker.withUnsafeBytes { write(slave, $0.baseAddress, $0.count) }
    let arrived = waitForOutput {
      $0.count >= before + Self.marker.count
        && $0.suffix(Self.marker.count).elementsEqual(Self.marker)
    }
    precondition(arrived, "the terminal's output stopped")
    return written.count
  }

  /// Changes the size, as a terminal window does before it sends SIGWINCH.
  func resize(width: Int, height: Int) {
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// Types bytes on the keyboard.
  func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Closes both ends and waits for the reading thread to finish.
  func close() {
    Glibc.close(slave)
    reading.wait()
    Glibc.close(master)
  }

  private func readUntilClosed() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      output.withLock { $0 += buffer[0..<count] }
      arrived.signal()
    }
    reading.signal()
  }
}
