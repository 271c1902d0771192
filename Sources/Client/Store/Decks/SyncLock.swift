#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The advisory lock (`flock`) on `DATABASE.lock` that a sync holds while it changes the
/// index, so two processes launched together never import the same deck twice. Released
/// when the value ends (or the process dies). The file stays: removing it would race with a
/// process about to lock it.
struct SyncLock: ~Copyable {
  private let descriptor: Int32

  /// Waits for the lock of the database at `databasePath`.
  init(databasePath: String) throws {
    let path = databasePath + ".lock"
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw StoreError.file(path: path, reason: String(cString: strerror(errno)))
    }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw StoreError.file(path: path, reason: reason)
      }
    }
  }

  deinit { close(descriptor) }
}
