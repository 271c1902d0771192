#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `.dat` index `strfile` writes beside a fortune file: a big-endian header of 24 bytes
/// (version, number of cookies, longest and shortest length, flags, delimiter byte and 3 bytes
/// of padding), then `count + 1` offsets into the text, the last one the text's length.
///
///     let index = try FortuneIndex(bytes: datFileBytes)
///     index.count        // 128
///     index.isRotated    // false: a ROT13 file (`strfile -x`) has flag 0x4
package struct FortuneIndex: Equatable, Sendable {
  package static let headerSize = 24
  /// The largest index read: 4 bytes a cookie, for 16 million cookies.
  package static let sizeLimit = 64 << 20

  package var version: UInt32
  package var count: Int
  package var longest: UInt32
  package var shortest: UInt32
  package var flags: UInt32
  package var delimiter: UInt8
  /// Where each cookie starts, in file order (an index of a shuffled or sorted file, flags
  /// 0x1 and 0x2, lists them otherwise: they are sorted here), and the text's length last.
  package var offsets: [Int]

  package static let random: UInt32 = 0x1
  package static let ordered: UInt32 = 0x2
  package static let rotated: UInt32 = 0x4

  /// ROT13 text (`strfile -x`), as the files of offensive cookies are.
  package var isRotated: Bool { flags & Self.rotated != 0 }

  /// Parses an index; nil when the bytes are not one (too short, a count the size cannot hold,
  /// offsets past each other).
  package init?(bytes: [UInt8]) {
    guard bytes.count >= Self.headerSize else { return nil }
    func word(_ at: Int) -> UInt32 {
      UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
        | UInt32(bytes[at + 3])
    }
    version = word(0)
    let count = Int(word(4))
    longest = word(8)
    shortest = word(12)
    flags = word(16)
    delimiter = bytes[20]
    guard (1...2).contains(version), bytes.count >= Self.headerSize + 4 * (count + 1) else {
      return nil
    }
    self.count = count
    var offsets = (0...count).map { word(Self.headerSize + 4 * $0) }.map(Int.init)
    if flags & (Self.random | Self.ordered) != 0 {
      let end = offsets.removeLast()
      offsets.sort()
      offsets.append(end)
    }
    guard zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
    self.offsets = offsets
  }

  /// The index of the fortune file at `text`: `TEXT.dat`, or for a `.u8` file whose plain
  /// twin is the same file (Debian links `riddles.u8` to `riddles`) the twin's index. Nil when
  /// there is none or it cannot be read as one.
  package static func beside(_ text: String) -> (path: String, index: FortuneIndex?)? {
    var candidates = ["\(text).dat"]
    if text.hasSuffix(".u8") {
      let twin = String(text.dropLast(3))
      if let a = FileStamp.of(text), let b = FileStamp.of(twin), a.inode == b.inode,
        a.size == b.size
      {
        candidates.append("\(twin).dat")
      }
    }
    for path in candidates {
      guard let stamp = FileStamp.of(path), stamp.size >= 0 else { continue }
      guard stamp.size <= sizeLimit, let bytes = try? readAll(path) else { return (path, nil) }
      return (path, FortuneIndex(bytes: bytes))
    }
    return nil
  }

  /// The whole of a regular file, at most `limit` bytes (a larger one is refused).
  static func readAll(_ path: String, limit: Int = sizeLimit) throws(DeckProblem) -> [UInt8] {
    let (descriptor, info) = try DeckFile.openRegular(path)
    defer { close(descriptor) }
    let size = Int(info.st_size)
    guard size <= limit else {
      throw DeckProblem(path: path, message: "over \(limit >> 20) MiB")
    }
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    while done < size {
      let count = bytes.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + done, size - done)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw DeckProblem.unreadable(path, errno: errno) }
      if count == 0 { break }
      done += count
    }
    bytes.removeLast(size - done)
    return bytes
  }
}
