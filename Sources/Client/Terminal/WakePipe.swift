import CNcursesw
import Glibc

/// A pipe that wakes `TerminalSession.waitForEvents` from any thread.
///
/// The pipeline calls `wake()` when a card becomes ready; the run loop passes `fd` to
/// `waitForEvents(wakeFD:)`, which drains it and reports `.wake`.
///
///     let pipe = WakePipe()
///     Task.detached { pipe.wake() }
///     session.waitForEvents(wakeFD: pipe.fd)  // [.wake]
public final class WakePipe: Sendable {
  /// The read end, for `waitForEvents(wakeFD:)`.
  public let fd: Int32
  private let writeFD: Int32

  /// Opens a non-blocking, close-on-exec pipe. Traps when the process is out of descriptors.
  public init() {
    var ends: [Int32] = [-1, -1]
    guard cnc_pipe(&ends) == 0 else {
      fatalError("ctfo: cannot open a pipe: \(String(cString: strerror(errno)))")
    }
    fd = ends[0]
    writeFD = ends[1]
  }

  deinit {
    Glibc.close(fd)
    Glibc.close(writeFD)
  }

  /// Writes one byte. Never blocks: when the pipe is full a wake-up is already pending.
  public func wake() {
    var byte: UInt8 = 1
    _ = write(writeFD, &byte, 1)
  }
}
