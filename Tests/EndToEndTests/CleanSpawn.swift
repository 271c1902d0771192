import Glibc

/// Runs a program with default signal dispositions and no blocked signals, its standard
/// streams on /dev/null, and waits for it.
///
/// Test code runs on threads that block signals, and a child inherits that mask: a tmux server
/// started from one would pass it on to the app, which would then never see SIGWINCH, SIGTERM
/// or SIGHUP. A daemon started with Foundation's `Process` and a pipe also keeps the pipe open,
/// so reading its output never ends.
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
}
