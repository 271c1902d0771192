#if canImport(Glibc)
  import Glibc
#endif
import Terminal

/// Wakes the UI when a file in the state folder changes: another process's commit (`ctfo
/// disable TYPE` in another terminal) then reaches the running app at once (issue 12, item 13).
///
/// One thread blocks in `read(2)` on an inotify descriptor, so an idle app still uses no CPU.
/// It waits for a file of the folder to be closed after a write (or moved in): a command such
/// as `ctfo disable` closes its connection when it exits. Not for each write (`IN_MODIFY`):
/// the app's own writes — every swipe, a pull of 10,000 cards, each analytics flush — would
/// wake its run loop hundreds of times a second. Another running app's change, whose files stay
/// open, is seen at the next key, where the app looks at the settings too (a pragma), as it
/// does everywhere when inotify is not available.
final class StateWatcher: Sendable {
  private let fd: Int32

  /// Watches `folder` (the state database's), waking `wake` on every change; nil when the
  /// system refuses (no inotify, too many watches).
  init?(folder: String, wake: WakePipe) {
    let fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else { return nil }
    guard inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0
    else {
      close(fd)
      return nil
    }
    self.fd = fd
    let context = Unmanaged.passRetained(Context(fd: fd, wake: wake)).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, nil, { raw in
      let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
      context.run()
      return nil
    }, context) == 0
    else {
      Unmanaged<Context>.fromOpaque(context).release()
      close(fd)
      return nil
    }
    pthread_detach(thread)
  }

  /// What the watching thread needs: the descriptor and the pipe to wake.
  private final class Context: Sendable {
    let fd: Int32
    let wake: WakePipe

    init(fd: Int32, wake: WakePipe) {
      self.fd = fd
      self.wake = wake
    }

    /// Reads events until the process ends (the descriptor is never closed while it runs).
    func run() {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
          wake.wake()
        } else if count < 0, errno != EINTR {
          return
        }
      }
    }
  }
}
