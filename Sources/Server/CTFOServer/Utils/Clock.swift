import SQL

#if canImport(Glibc)
  import Glibc
#endif

/// The wall clock in milliseconds since the epoch.
enum Clock {
  static func milliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
