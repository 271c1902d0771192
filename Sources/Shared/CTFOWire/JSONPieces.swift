import FeedCore
import FoundationEssentials
import YieldToUser

/// A large answer decoded in pieces, with a yield point (Courtesy) every few kilobytes.
///
/// FoundationEssentials' `JSONDecoder` scans the whole text before it decodes a value: for a
/// large pull that scan runs on the pull's background thread with no point at which it gives
/// the CPU up to a key. This splitter makes that first pass
/// itself, yielding every 4 KiB: it hands the decoder the top-level object with its long
/// arrays emptied (`"cards":[]`), then those arrays' elements `groupSize` at a time.
///
/// It reads only the shape of the text (strings, brackets, commas, the letters of literals); the
/// decoder still checks every byte. Any text it does not take for one object gives nil, and the
/// caller decodes the text whole, as before. It counts nesting as `JSONNesting` does, so a text
/// too deep for that check is never split. The `pulls` fuzzer holds it to that: both ways fail,
/// or both give the same pull.
struct JSONPieces {
  /// The text with each split array emptied.
  var envelope: [UInt8]
  /// Each split array's elements, as ranges of the text, in order.
  var elements: [String: [Range<Int>]]

  /// Elements decoded at a time, each group then a yield point: a group of cards is a few
  /// kilobytes.
  static let groupSize = 16

  /// Splits `text`, one JSON object, at the elements of its members named in `arrays`. Nil when
  /// the text is not one object, names a split array twice, or nests deeper than `limit`.
  static func split(_ text: [UInt8], arrays: Set<String>, limit: Int) -> JSONPieces? {
    text.withUnsafeBufferPointer { bytes in
      var scanner = Scanner(bytes: bytes, limit: limit)
      return scanner.object(splitting: Set(arrays.map { Array($0.utf8) }))
    }
  }

  /// The elements of the array `name` of `text`, decoded `groupSize` at a time. `fast`, when
  /// given, reads an element by hand, or gives nil for `decoder` to read its group
  /// (`Wire.Card.flat`).
  func decode<T: Decodable>(
    _ type: T.Type, of name: String, in text: [UInt8], decoder: JSONDecoder,
    fast: ((UnsafeRawBufferPointer) -> T?)? = nil
  ) throws(GroupError) -> [T] {
    guard let ranges = elements[name] else { return [] }
    var values: [T] = []
    values.reserveCapacity(ranges.count)
    var start = 0
    while start < ranges.count {
      let group = ranges[start..<min(start + Self.groupSize, ranges.count)]
      do {
        values +=
          try fast.flatMap { Self.decode(group, of: text, $0) }
          ?? Self.decode(group, of: text, decoder)
      } catch {
        throw GroupError(first: start, error: error)
      }
      Courtesy.yieldPoint()
      start += Self.groupSize
    }
    return values
  }

  /// `group` read by `decoder` as one JSON array.
  private static func decode<T: Decodable>(
    _ group: ArraySlice<Range<Int>>, of text: [UInt8], _ decoder: JSONDecoder
  ) throws -> [T] {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(group.reduce(2) { $0 + $1.count + 1 })
    for (offset, range) in group.enumerated() {
      if offset > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: text[range])
    }
    bytes.append(UInt8(ascii: "]"))
    return try decoder.decode([T].self, from: Data(bytes))
  }

  /// Every element of `group` read by `fast`, or nil when it gives up on one.
  private static func decode<T>(
    _ group: ArraySlice<Range<Int>>, of text: [UInt8], _ fast: (UnsafeRawBufferPointer) -> T?
  ) -> [T]? {
    text.withUnsafeBytes { bytes in
      var values: [T] = []
      values.reserveCapacity(group.count)
      for range in group {
        guard let value = fast(UnsafeRawBufferPointer(rebasing: bytes[range])) else { return nil }
        values.append(value)
      }
      return values
    }
  }

  /// A group failed to decode: `first` is the index of its first element in the whole array.
  struct GroupError: Error {
    var first: Int
    var error: any Error
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limit: Int
    var at = 0
    var lastYield = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
      self.bytes = bytes
      self.limit = limit
    }

    mutating func object(splitting names: Set<[UInt8]>) -> JSONPieces? {
      var envelope: [UInt8] = []
      var copied = 0
      var elements: [String: [Range<Int>]] = [:]
      skipSpace()
      guard take(UInt8(ascii: "{")) else { return nil }
      skipSpace()
      if !take(UInt8(ascii: "}")) {
        while true {
          skipSpace()
          guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let end = stringEnd(at) else {
            return nil
          }
          let name = Array(bytes[(at + 1)..<end])
          // A name with an escape may spell a split array's name another way: decoded whole.
          guard !name.contains(UInt8(ascii: "\\")) else { return nil }
          at = end + 1
          skipSpace()
          guard take(UInt8(ascii: ":")) else { return nil }
          skipSpace()
          if names.contains(name), at < bytes.count, bytes[at] == UInt8(ascii: "[") {
            let key = String(decoding: name, as: UTF8.self)
            guard elements[key] == nil else { return nil }
            at += 1
            envelope.append(contentsOf: bytes[copied..<at])
            guard let ranges = elementRanges() else { return nil }
            elements[key] = ranges
            copied = at - 1  // the closing bracket stays in the envelope
          } else {
            guard skipValue(depth: 1) else { return nil }
          }
          skipSpace()
          if take(UInt8(ascii: ",")) { continue }
          guard take(UInt8(ascii: "}")) else { return nil }
          break
        }
      }
      skipSpace()
      guard at == bytes.count else { return nil }
      envelope.append(contentsOf: bytes[copied..<bytes.count])
      return JSONPieces(envelope: envelope, elements: elements)
    }

    /// After an array's `[`: its elements' ranges, leaving `at` after its `]`.
    private mutating func elementRanges() -> [Range<Int>]? {
      var ranges: [Range<Int>] = []
      skipSpace()
      if take(UInt8(ascii: "]")) { return ranges }
      while true {
        skipSpace()
        let start = at
        guard skipValue(depth: 2) else { return nil }
        ranges.append(start..<at)
        skipSpace()
        if take(UInt8(ascii: ",")) { continue }
        guard take(UInt8(ascii: "]")) else { return nil }
        return ranges
      }
    }

    /// Skips one value whose container is `depth` deep; false at a text it cannot skip.
    private mutating func skipValue(depth outer: Int) -> Bool {
      guard at < bytes.count else { return false }
      switch bytes[at] {
      case UInt8(ascii: "\""):
        guard let end = stringEnd(at) else { return false }
        at = end + 1
        return true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        var depth = outer
        while at < bytes.count {
          courtesy()
          switch bytes[at] {
          case UInt8(ascii: "\""):
            guard let end = stringEnd(at) else { return false }
            at = end
          case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > limit { return false }
          case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == outer {
              at += 1
              return true
            }
          default: break
          }
          at += 1
        }
        return false
      default:
        // A number, true, false or null; any other byte is for the decoder to refuse.
        let start = at
        while at < bytes.count, Self.inLiteral(bytes[at]) { at += 1 }
        return at > start
      }
    }

    /// The index of the quote that closes the string opening at `start`.
    private mutating func stringEnd(_ start: Int) -> Int? {
      var index = start + 1
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\\"): index += 2
        case UInt8(ascii: "\""): return index
        default: index += 1
        }
        if index & 0xFFF == 0 {
          at = index
          courtesy()
        }
      }
      return nil
    }

    private mutating func skipSpace() {
      while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard at < bytes.count, bytes[at] == byte else { return false }
      at += 1
      return true
    }

    /// A yield point every 4 KiB of text.
    private mutating func courtesy() {
      guard at &- lastYield >= 4096 else { return }
      lastYield = at
      Courtesy.yieldPoint()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func inLiteral(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        true
      default: false
      }
    }
  }
}
