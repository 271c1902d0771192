#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A deck file opened for streaming: its size and modification time, its lines read in
/// 1 MiB chunks (never the whole file as one string), and a hash of its content.
///
/// Only a regular file is read, and a line longer than `lineLimit` is reported, never held
/// in memory: whatever the file, reading it takes a bounded amount of memory.
package final class DeckFile {
  package static let chunkSize = 1 << 20
  /// The most bytes a line may have before its LF (a CR included); a longer line is skipped.
  package static let lineLimit = 1 << 20

  /// One line as read: its bytes without the LF or CR LF, or the fact it was too long.
  package enum Line {
    case text(UnsafeRawBufferPointer)
    case tooLong
  }

  /// What `forEachLine` calls with each line and its 1-based number.
  package typealias LineBody = (Line, Int) throws -> Void

  package let path: String
  package let size: Int64
  /// Seconds since 1970, with the file system's sub-second precision.
  package let mtime: Double
  private let descriptor: Int32

  /// Opens `path`; a missing, unreadable or not regular file is one problem naming why.
  package init(path: String) throws(DeckProblem) {
    self.path = path
    let (descriptor, info) = try Self.openRegular(path)
    self.descriptor = descriptor
    let stamp = FileStamp(info)
    size = stamp.size
    mtime = stamp.mtime
  }

  /// Opens `path` for reading, and its status, if it is a regular file. `O_NONBLOCK` keeps a
  /// FIFO from blocking the open; a FIFO, a device or a folder is refused before any read.
  static func openRegular(_ path: String) throws(DeckProblem) -> (Int32, stat) {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw DeckProblem.unreadable(path, errno: errno) }
    var info = stat()
    let status = fstat(descriptor, &info) == 0 ? 0 : errno
    let kind = info.st_mode & S_IFMT
    guard status == 0, kind == S_IFREG else {
      close(descriptor)
      if status != 0 { throw DeckProblem.unreadable(path, errno: status) }
      throw DeckProblem(path: path, message: "not a regular file")
    }
    return (descriptor, info)
  }

  deinit { close(descriptor) }

  /// The content hash, reading the whole file once.
  package func contentHash() throws -> String {
    try forEachLine { _, _ in }
  }

  /// Calls `body` with every line and its 1-based number, and `progress` after each chunk with
  /// the bytes read so far and the file's size.
  ///
  /// - Returns: the content hash (FNV-1a, 64 bits, hex).
  /// - Throws: a `DeckProblem` when reading fails, or what `body` throws.
  @discardableResult
  package func forEachLine(
    progress: ((Int64, Int64) -> Void)? = nil, _ body: LineBody
  ) throws -> String {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw DeckProblem.unreadable(path, errno: errno)
    }
    var splitter = LineSplitter()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    var done: Int64 = 0
    while true {
      let count = read(descriptor, chunk.baseAddress, Self.chunkSize)
      guard count >= 0 else { throw DeckProblem.unreadable(path, errno: errno) }
      if count == 0 { break }
      try splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), body)
      done += Int64(count)
      progress?(done, size)
    }
    try splitter.finish(body)
    return String(splitter.hash, radix: 16)
  }
}

/// Splits a stream of chunks into lines, carrying a partial line from one chunk to the next,
/// and hashes every byte on the way. A line over `DeckFile.lineLimit` is reported as soon as
/// it passes the limit, and its bytes are dropped up to the next LF: the carry never holds
/// more than the limit.
struct LineSplitter {
  private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  private var carry: [UInt8] = []
  /// Whether the current line passed the limit (and was reported): dropped up to its LF.
  private var dropping = false
  private var number = 0

  mutating func feed(
    _ chunk: UnsafeRawBufferPointer, _ body: DeckFile.LineBody
  ) rethrows {
    for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    var start = 0
    while let end = chunk[start...].firstIndex(of: 0x0A) {
      try complete(UnsafeRawBufferPointer(rebasing: chunk[start..<end]), body)
      start = end + 1
    }
    try hold(UnsafeRawBufferPointer(rebasing: chunk[start...]), body)
  }

  mutating func finish(_ body: DeckFile.LineBody) rethrows {
    guard !carry.isEmpty else { return }
    try carry.withUnsafeBytes { try emit(.text($0), body) }
    carry.removeAll()
  }

  /// The last piece of a line, up to its LF.
  private mutating func complete(
    _ piece: UnsafeRawBufferPointer, _ body: DeckFile.LineBody
  ) rethrows {
    if dropping {
      dropping = false
    } else if carry.count + piece.count > DeckFile.lineLimit {
      carry.removeAll(keepingCapacity: true)
      try emit(.tooLong, body)
    } else if carry.isEmpty {
      try emit(.text(piece), body)
    } else {
      carry.append(contentsOf: piece)
      try carry.withUnsafeBytes { try emit(.text($0), body) }
      carry.removeAll(keepingCapacity: true)
    }
  }

  /// A piece of a line that goes on in the next chunk: kept, or past the limit reported and
  /// dropped with the rest of its line.
  private mutating func hold(
    _ piece: UnsafeRawBufferPointer, _ body: DeckFile.LineBody
  ) rethrows {
    guard !dropping else { return }
    guard carry.count + piece.count <= DeckFile.lineLimit else {
      carry.removeAll(keepingCapacity: true)
      dropping = true
      return try emit(.tooLong, body)
    }
    carry.append(contentsOf: piece)
  }

  private mutating func emit(
    _ line: DeckFile.Line, _ body: DeckFile.LineBody
  ) rethrows {
    number += 1
    guard case .text(let bytes) = line, bytes.last == 0x0D else { return try body(line, number) }
    try body(.text(UnsafeRawBufferPointer(rebasing: bytes.dropLast())), number)
  }
}
