#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The formats a deck file may have: JSON Lines (`*.jsonl`), or fortune's cookie files.
///
/// A `*.jsonl` file is JSON Lines; a file with a `.dat` index beside it, or named `*.u8` or
/// `*.fortune`, is a fortune file; any other file is JSON Lines when its first character that
/// is not a space is `{`, else a fortune file.
package enum DeckFormat: Sendable, Equatable {
  case jsonLines
  case fortune

  package static func of(_ path: String) -> DeckFormat {
    if path.hasSuffix(".jsonl") { return .jsonLines }
    if path.hasSuffix(".u8") || path.hasSuffix(".fortune") || isFortuneByIndex(path) {
      return .fortune
    }
    return firstCharacter(of: path) == UInt8(ascii: "{") ? .jsonLines : .fortune
  }

  /// Whether `path` has a strfile index beside it (`riddles` and `riddles.dat`).
  package static func isFortuneByIndex(_ path: String) -> Bool {
    FileStamp.of("\(path).dat").map { $0.size >= 0 } ?? false
  }

  /// The first byte of the file that is not a space, tab, CR, LF or a UTF-8 byte order mark.
  private static func firstCharacter(of path: String) -> UInt8? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4096) }
    guard count > 0 else { return nil }
    return buffer[..<count].first {
      ![0x20, 0x09, 0x0D, 0x0A, 0xEF, 0xBB, 0xBF].contains($0)
    }
  }
}

/// Reads any deck file as a sequence of entries: the parser's lines for JSON Lines; for a
/// fortune file a header declaring its type, then its cards (`FortuneDeck`).
package enum DeckEntries {
  /// What a read found beside its entries: the content hash, and problems of the whole file
  /// (a stale fortune index), with their own paths.
  package struct Outcome {
    package var hash: String
    package var problems: [DeckProblem] = []
  }

  /// Calls `body` with each entry of `file` and the line it is on; `progress` now and then
  /// with the bytes read and the file's size.
  @discardableResult
  package static func read(
    _ file: DeckFile, progress: ((Int64, Int64) -> Void)? = nil,
    _ body: (DeckLine, Int) throws -> Void
  ) throws -> Outcome {
    switch DeckFormat.of(file.path) {
    case .jsonLines:
      var parser = DeckParser()
      let hash = try file.forEachLine(progress: progress) { text, line in
        try body(parser.parse(text), line)
      }
      return Outcome(hash: hash)
    case .fortune:
      let contents = try FortuneDeck.read(file.path, progress: progress)
      try body(
        .header(
          DeckHeader(name: FortuneDeck.baseName(of: file.path), types: [contents.type])), 1)
      for (card, line) in contents.cards { try body(.card(card), line) }
      return Outcome(hash: contents.hash, problems: contents.problems)
    }
  }
}
