#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A deck file opened for streaming: its size and modification time, its lines read in
/// 1 MiB chunks (never the whole file as one string), and a hash of its content.
final class DeckFile {
  static let chunkSize = 1 << 20

  let path: String
  let size: Int64
  /// Seconds since 1970, with the file system's sub-second precision.
  let mtime: Double
  private let descriptor: Int32

  /// Opens `path`; an unreadable or missing file is one problem naming the reason.
  init(path: String) throws(DeckProblem) {
    self.path = path
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw DeckProblem.unreadable(path, errno: errno) }
    var info = stat()
    let failure =
      fstat(descriptor, &info) != 0 ? errno : (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : 0
    guard failure == 0 else {
      close(descriptor)
      throw DeckProblem.unreadable(path, errno: failure)
    }
    let stamp = FileStamp(info)
    size = stamp.size
    mtime = stamp.mtime
  }

  deinit { close(descriptor) }

  /// The content hash, reading the whole file once.
  func contentHash() throws -> String {
    try forEachLine { _, _ in }
  }

  /// Calls `body` with every line (without its LF, or CR LF) and its 1-based number.
  ///
  /// - Returns: the content hash (FNV-1a, 64 bits, hex).
  @discardableResult
  /// - Throws: a `DeckProblem` when reading fails, or what `body` throws.
  func forEachLine(
    _ body: (UnsafeRawBufferPointer, Int) throws -> Void
  ) throws -> String {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw DeckProblem.unreadable(path, errno: errno)
    }
    var splitter = LineSplitter()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let count = read(descriptor, chunk.baseAddress, Self.chunkSize)
      guard count >= 0 else { throw DeckProblem.unreadable(path, errno: errno) }
      if count == 0 { break }
      try splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), body)
    }
    try splitter.finish(body)
    return String(splitter.hash, radix: 16)
  }
}

/// Splits a stream of chunks into lines, carrying a partial line from one chunk to the next,
/// and hashes every byte on the way.
private struct LineSplitter {
  private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  private var carry: [UInt8] = []
  private var number = 0

  mutating func feed(
    _ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void
  ) rethrows {
    for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    var start = 0
    while let end = chunk[start...].firstIndex(of: 0x0A) {
      let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
      if carry.isEmpty {
        try emit(piece, body)
      } else {
        carry.append(contentsOf: piece)
        try carry.withUnsafeBytes { try emit($0, body) }
        carry.removeAll(keepingCapacity: true)
      }
      start = end + 1
    }
    carry.append(contentsOf: chunk[start...])
  }

  mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
    guard !carry.isEmpty else { return }
    try carry.withUnsafeBytes { try emit($0, body) }
    carry.removeAll()
  }

  private mutating func emit(
    _ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void
  ) rethrows {
    number += 1
    let trimmed = line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
    try body(trimmed, number)
  }
}
