#if canImport(Glibc)
  import Glibc
#endif

/// `posix_spawn` attributes for a program ctfo starts (a browser, a reaction hook): default
/// handling of every signal and none blocked, whatever ctfo itself ignores or blocks; with
/// `ownGroup`, a process group of its own, so that everything it starts can be stopped at once.
///
///     SpawnAttributes.with(ownGroup: false) { attributes in
///       posix_spawnp(&pid, program, nil, &attributes, argv, environ)
///     }
enum SpawnAttributes {
  static func with<T>(
    ownGroup: Bool, _ body: (inout posix_spawnattr_t) -> T
  ) -> T {
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
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    return body(&attributes)
  }
}
