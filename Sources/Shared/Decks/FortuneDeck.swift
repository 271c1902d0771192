import FeedCore

/// A fortune cookie file read as a deck: cookies separated by a line holding only the
/// delimiter (`%`), the whole file one type named after it, each cookie a card.
///
/// A cookie's first line is its title when it reads as one (it has more lines after it, it is
/// short, and it stands alone, ends a sentence or is in capitals: `isTitle`), the rest its
/// body; else the whole cookie is the body (a wrapped paragraph is not cut in two). A closing
/// attribution (`\t\t-- Mark Twain`, with at most two indented lines after it) is taken off the
/// body and becomes the card's source, else the source is `fortune: NAME`. Text that is not
/// UTF-8 is read as Latin-1; a ROT13 file (flag 0x4 of its index) is turned back; overstrikes
/// (`_\bx`, old fortune files' underlining) keep the last character. A card's id is its type
/// and a hash of its text, so an edit elsewhere in the file keeps every other card's id (and
/// its place in the reader's history).
///
/// The `.dat` index, when there is one, splits the text at its offsets, without looking at
/// every line; it is checked against the text (its cookie count and the text's length, and
/// that every cookie ends at a delimiter line), and a stale one is reported and the text is
/// split by its lines instead.
package enum FortuneDeck {
  /// The largest fortune file read (the largest Debian's packages install is under 1 MiB).
  package static let sizeLimit = 64 << 20
  /// A first line longer than this is not a title: the cookie is one body.
  static let titleLimit = 100

  /// The type a fortune file's cards have: its file name without `.u8`, lower case, with
  /// anything but letters, digits, `-` and `_` made `-` (`riddles`, `bofh-excuses`).
  package static func typeName(of path: String) -> String {
    let name = baseName(of: path).lowercased()
    let cleaned = String(
      name.unicodeScalars.map { scalar -> Character in
        let ok =
          ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
          || scalar == "_"
        return ok ? Character(scalar) : "-"
      }
    ).prefix(DeckName.typeLimit)
    return cleaned.isEmpty ? "fortune" : String(cleaned)
  }

  /// The file's name without its folder and a `.u8` or `.fortune` ending.
  package static func baseName(of path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for ending in [".u8", ".fortune"] where name.hasSuffix(ending) && name.count > ending.count {
      name.removeLast(ending.count)
    }
    return name
  }

  /// The label of a fortune file's type: its name with a capital (`riddles` → `Riddles`).
  package static func label(of path: String) -> String {
    let name = baseName(of: path)
    return name.prefix(1).uppercased() + name.dropFirst()
  }

  /// What reading a fortune file found: its type, its cards with the line each starts on,
  /// its problems, and the hash of its text.
  package struct Contents {
    package var type: CardType
    package var cards: [(card: Card, line: Int)] = []
    package var problems: [DeckProblem] = []
    package var hash = ""
    /// Whether the `.dat` index split the text.
    package var usedIndex = false
  }

  /// Reads the fortune file at `path`, with the index beside it when there is one.
  /// `progress` is called with the bytes done and the total now and then.
  package static func read(
    _ path: String, progress: ((Int64, Int64) -> Void)? = nil
  ) throws(DeckProblem) -> Contents {
    let text = try FortuneIndex.readAll(path, limit: sizeLimit)
    let index = FortuneIndex.beside(path)
    var contents = Contents(
      type: CardType(
        name: typeName(of: path), label: label(of: path),
        description: "fortune: \(baseName(of: path))"))
    contents.hash = hexHash(text)
    var delimiter = UInt8(ascii: "%")
    var rotated = false
    var cookies: [Range<Int>]?
    if let (indexPath, parsed) = index {
      if let parsed {
        delimiter = parsed.delimiter == 0 ? delimiter : parsed.delimiter
        rotated = parsed.isRotated
        cookies = split(text, at: parsed)
        if cookies == nil {
          contents.problems.append(
            DeckProblem(
              path: indexPath,
              message:
                "the index is stale (\(parsed.count) cookies over \(parsed.offsets.last ?? 0) "
                + "bytes; the text has \(text.count) bytes): the text is read without it; "
                + "run strfile again"))
        }
      } else {
        contents.problems.append(
          DeckProblem(
            path: indexPath, message: "not a strfile index: the text is read without it"))
      }
    }
    contents.usedIndex = cookies != nil
    let ranges = cookies ?? split(text, delimiter: delimiter)
    let type = contents.type.name
    let source = "fortune: \(baseName(of: path))"
    var seen: [String: Int] = [:]
    var line = 1
    var counted = 0
    let total = Int64(text.count)
    for (number, range) in ranges.enumerated() {
      line += newlines(in: text, from: counted, to: range.lowerBound)
      counted = range.lowerBound
      if number % 1024 == 0 { progress?(Int64(range.lowerBound), total) }
      let raw = text[range]
      guard raw.count <= DeckFile.lineLimit else {
        contents.problems.append(
          DeckProblem(
            path: path, line: line,
            message: "cookie too long (over \(DeckFile.lineLimit >> 20) MiB)"))
        continue
      }
      guard let parts = cookie(raw, rotated: rotated) else { continue }
      let digest = String(hash(raw), radix: 16)
      let repeats = seen[digest, default: 0]
      seen[digest] = repeats + 1
      let id = "fortune:\(type):\(digest)" + (repeats == 0 ? "" : "-\(repeats + 1)")
      let card = Card(
        id: id, type: type, title: parts.title, body: parts.body,
        source: parts.attribution ?? source)
      contents.cards.append((card, line))
    }
    progress?(total, total)
    return contents
  }

  /// The cookies at the index's offsets, each without its closing delimiter line; nil when
  /// the index does not fit the text.
  static func split(_ text: [UInt8], at index: FortuneIndex) -> [Range<Int>]? {
    let offsets = index.offsets
    guard offsets.count == index.count + 1, offsets.last == text.count,
      offsets.first.map({ $0 >= 0 }) ?? false
    else { return nil }
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(index.count)
    let delimiter = index.delimiter == 0 ? UInt8(ascii: "%") : index.delimiter
    for (start, end) in zip(offsets, offsets.dropFirst()) {
      var stop = end
      // The cookie ends at `\n%\n` (the next one's start is after it), or at the end.
      if stop >= 2, text[stop - 1] == 0x0A, text[stop - 2] == delimiter,
        stop - 2 == start || text[stop - 3] == 0x0A
      {
        stop -= 2
      } else if stop >= 3, text[stop - 1] == 0x0A, text[stop - 2] == 0x0D,
        text[stop - 3] == delimiter
      {
        stop -= 3
      } else if end != text.count {
        return nil
      }
      // A file that opens with a delimiter line: strfile's first offset is before it.
      var begin = start
      if begin == 0, text.count >= 2, text[0] == delimiter, text[1] == 0x0A {
        begin = min(2, stop)
      }
      ranges.append(begin..<max(begin, stop))
    }
    return ranges
  }

  /// The cookies between delimiter lines (a line holding only `delimiter`, or it and CR).
  static func split(_ text: [UInt8], delimiter: UInt8) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var lineStart = 0
    let count = text.count
    text.withUnsafeBufferPointer { bytes in
      while lineStart < count {
        var lineEnd = lineStart
        while lineEnd < count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
        let length = lineEnd - lineStart
        let isDelimiter =
          bytes[lineStart] == delimiter
          && (length == 1 || (length == 2 && bytes[lineStart + 1] == 0x0D))
        if isDelimiter {
          ranges.append(start..<lineStart)
          start = min(lineEnd + 1, count)
        }
        lineStart = lineEnd + 1
      }
    }
    if start < count { ranges.append(start..<count) }
    return ranges
  }

  private static func newlines(in text: [UInt8], from: Int, to: Int) -> Int {
    guard from < to else { return 0 }
    return text.withUnsafeBufferPointer { bytes in
      var count = 0
      for i in from..<to where bytes[i] == 0x0A { count += 1 }
      return count
    }
  }

  /// A cookie's title, body and attribution; nil for one that holds nothing but spaces.
  static func cookie(
    _ raw: ArraySlice<UInt8>, rotated: Bool
  ) -> (title: String?, body: String, attribution: String?)? {
    var text = String(validating: raw, as: UTF8.self) ?? latin1(raw)
    if rotated { text = rot13(text) }
    if text.contains("\u{8}") { text = overstruck(text) }
    if text.utf8.contains(0x0D) { text = text.replacing("\r\n", with: "\n") }
    var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(Substring($0))
    }
    while let last = lines.last, isBlank(last) { lines.removeLast() }
    while let first = lines.first, isBlank(first) { lines.removeFirst() }
    guard !lines.isEmpty else { return nil }
    let attribution = takeAttribution(&lines)
    if lines.count >= 2, let first = lines.first, first.count <= titleLimit,
      lines.dropFirst().contains(where: { !isBlank($0) }), isTitle(first, before: lines[1])
    {
      var rest = Array(lines.dropFirst())
      while let head = rest.first, isBlank(head) { rest.removeFirst() }
      return (trimmed(first), rest.joined(separator: "\n"), attribution)
    }
    return (nil, lines.joined(separator: "\n"), attribution)
  }

  /// Takes a closing attribution off `lines`: the last line that begins, after spaces, with
  /// `-- ` (or `— `), followed by at most two indented lines, with text before it.
  private static func takeAttribution(_ lines: inout [String]) -> String? {
    guard
      let at = lines.lastIndex(where: {
        let text = $0.drop(while: { $0 == " " || $0 == "\t" })
        return text.hasPrefix("-- ") || text.hasPrefix("\u{2014} ")
      }), at > 0
    else { return nil }
    let after = lines[(at + 1)...]
    guard after.count <= 2,
      after.allSatisfy({ !isBlank($0) && ($0.first == " " || $0.first == "\t") }),
      lines[..<at].contains(where: { !isBlank($0) })
    else { return nil }
    let first = trimmed(lines[at])
    let name = first.hasPrefix("-- ") ? first.dropFirst(3) : first.dropFirst(2)
    let whole = ([String(name)] + after.map(trimmed)).joined(separator: " ")
    lines.removeSubrange(at...)
    while let last = lines.last, isBlank(last) { lines.removeLast() }
    return whole.isEmpty ? nil : whole
  }

  /// Whether a first line reads as a title rather than the start of a wrapped paragraph: it
  /// stands alone (a blank line follows), ends a sentence or a clause (`.`, `?`, `!`, `:`),
  /// or has letters and none of them in lower case.
  static func isTitle(_ first: String, before next: String) -> Bool {
    if isBlank(next) { return true }
    let text = trimmed(first)
    if let last = text.last, ".?!:".contains(last) { return true }
    return text.contains(where: \.isLetter) && !text.contains(where: \.isLowercase)
  }

  private static func isBlank(_ line: String) -> Bool {
    line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  private static func trimmed(_ line: String) -> String {
    let utf8 = line.utf8
    guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
      let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
    else { return "" }
    return String(Substring(utf8[first...last]))
  }

  static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
    return text
  }

  /// ROT13 of the ASCII letters; everything else as it is.
  static func rot13(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar.value {
          case 0x41...0x5A: Unicode.Scalar((scalar.value - 0x41 + 13) % 26 + 0x41)!
          case 0x61...0x7A: Unicode.Scalar((scalar.value - 0x61 + 13) % 26 + 0x61)!
          default: scalar
          }
        }))
  }

  /// Overstrikes resolved: each backspace takes back the character before it on its line, so
  /// `_\bx` is `x` and `__\b\bUN` is `UN`.
  static func overstruck(_ text: String) -> String {
    var out: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars {
      if scalar == "\u{8}" {
        if let last = out.last, last != "\n" { out.removeLast() }
      } else {
        out.append(scalar)
      }
    }
    var result = ""
    result.unicodeScalars.append(contentsOf: out)
    return result
  }

  /// FNV-1a, 64 bits, as `DeckFile` hashes a deck.
  static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.withUnsafeBufferPointer { buffer in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return hash
    }
  }

  static func hash(_ bytes: [UInt8]) -> UInt64 { hash(bytes[...]) }

  static func hexHash(_ bytes: [UInt8]) -> String {
    String(hash(bytes), radix: 16)
  }
}
