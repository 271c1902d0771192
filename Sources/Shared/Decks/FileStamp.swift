#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What tells a file's versions apart without reading it: size, modification time and inode.
/// The deck index records size and mtime per deck (a deck whose stamp changed is read again);
/// the config file is told apart the same way.
public struct FileStamp: Hashable, Sendable {
  /// -1 for a file that does not exist.
  public var size: Int64
  /// Seconds since 1970, with the file system's sub-second precision.
  public var mtime: Double
  public var inode: UInt64

  /// The stamp of a missing file.
  public static let missing = FileStamp(size: -1, mtime: 0, inode: 0)

  public init(size: Int64, mtime: Double, inode: UInt64) {
    self.size = size
    self.mtime = mtime
    self.inode = inode
  }

  public init(_ info: stat) {
    size = Int64(info.st_size)
    #if canImport(Darwin)
      mtime = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
    #else
      mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    #endif
    inode = UInt64(info.st_ino)
  }

  /// The stamp of the file at `path`: `.missing` when there is none, nil when it cannot be
  /// told (another error, or not a regular file).
  public static func of(_ path: String) -> FileStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return errno == ENOENT ? .missing : nil }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return FileStamp(info)
  }

  /// The stamp of a regular file that can be opened for reading now, else nil.
  public static func ofReadable(_ path: String) -> FileStamp? {
    guard let (descriptor, info) = try? DeckFile.openRegular(path) else { return nil }
    close(descriptor)
    return FileStamp(info)
  }
}
