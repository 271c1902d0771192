import CNcursesw
import Glibc

/// The process's signals while a session is open: the session's signals go to a self-pipe, and
/// the fatal ones restore the terminal before the process dies.
///
/// The only file that calls the shim's `cnc_signal_*` and `cnc_crash_*` functions, whose state
/// exists once per translation unit (see shim.h). One route at a time per process.
final class SignalRoute {
  /// Resize, quit, suspend and continue: written to the pipe by the handler, read by the session.
  static let routed: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT]
  /// Swift traps are SIGILL (x86_64) or SIGTRAP (arm64) on Linux.
  static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

  /// The read end of the self-pipe, for poll(2).
  let readFD: Int32
  private let writeFD: Int32
  private var isOpen = true

  /// Saves the terminal's modes of now for a crash, then routes the signals. Nil when no pipe
  /// can be opened.
  init?(tty: Int32, output: Int32, reset: [UInt8]) {
    var ends: [Int32] = [-1, -1]
    guard cnc_pipe(&ends) == 0 else { return nil }
    readFD = ends[0]
    writeFD = ends[1]
    reset.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        cnc_crash_arm(tty, output, $0.baseAddress, $0.count)
      }
    }
    cnc_crash_ensure_stack()
    for sig in Self.fatal { _ = cnc_crash_catch(sig) }
    for sig in Self.routed { _ = cnc_signal_route(sig, writeFD) }
  }

  /// The signals received since the last call, in order.
  func drain() -> [Int32] {
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(readFD, &buffer, buffer.count)
      guard count > 0 else { return signals }
      signals += buffer[0..<count].map { Int32($0) }
    }
  }

  /// Stops the process group as Ctrl-Z does in a shell; returns once continued.
  func stopProcessGroup() {
    cnc_signal_stop_process_group()
  }

  /// Gives every signal back its previous action and closes the pipe. Safe to call twice.
  func close() {
    guard isOpen else { return }
    isOpen = false
    cnc_crash_disarm()
    for sig in Self.routed + Self.fatal { cnc_signal_unroute(sig) }
    Glibc.close(readFD)
    Glibc.close(writeFD)
  }

  deinit { close() }
}
