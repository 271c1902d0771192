import Glibc

/// Runs a program with default signal dispositions and no blocked signals, its standard
/// streams on /dev/null, and waits for it.
///
/// Test code runs on threads that block signals, and a child inherits that mask: a tmux server
/// started from one would pass it on to the app, which would then never see SIGWINCH, SIGTERM
/// or SIGHUP. A daemon started with Foundation's `Process` and a pipe also keeps the pipe open,
/// so reading its output never ends. Nor does it inherit any other descriptor: a tmux server
/// spawned while another test reads a pipe to its end would hold that pipe's write end open
/// until the server exits (a clean-clone CI run stalled on `ctfo next | head -3` so).
enum CleanSpawn {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Returns the exit status.
  @discardableResult
  static func run(_ arguments: [String]) throws -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    closeTheRest(&actions)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let error = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    guard error == 0 else {
      throw Failure(
        description: "cannot start \(arguments[0]): \(String(cString: strerror(error)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// Closes every descriptor from 3 up in the child, with glibc's
  /// `posix_spawn_file_actions_addclosefrom_np` (2.34; Debian 12 has 2.36), which Swift's Glibc
  /// module does not declare, so it is looked up.
  private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
      -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
      preconditionFailure("this glibc has no posix_spawn_file_actions_addclosefrom_np")
    }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
  }
}
