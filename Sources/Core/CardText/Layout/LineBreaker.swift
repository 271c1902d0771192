/// Greedy line breaking over the UTF-8 bytes of sanitised text, as `WrappedText` describes.
///
/// A line is a byte range of the text until it is complete and copied into a string, so wrapping
/// allocates nothing per word or character; only a word wider than the line is walked cluster by
/// cluster.
struct LineBreaker {
  /// The line being filled: a byte range of the text and its width in cells.
  struct Line {
    var start: Int
    var end: Int
    var width: Int
    /// A wide cluster alone on a line narrower than it: drawn as U+FFFD.
    var replacesWide = false

    var isEmpty: Bool { start == end }
  }

  private static let space: UInt8 = 0x20
  private static let tab: UInt8 = 0x09
  private static let newline: UInt8 = 0x0A
  private static let tabStop = 8

  let text: String
  let bytes: UnsafeBufferPointer<UInt8>
  let width: Int
  let maxLines: Int
  private(set) var lines: [String] = []
  private(set) var truncated = false
  private var line = Line(start: 0, end: 0, width: 0)

  init(text: String, bytes: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int) {
    self.text = text
    self.bytes = bytes
    self.width = width
    self.maxLines = maxLines
  }

  /// Breaks the whole text into `lines`, stopping at `maxLines`.
  mutating func run() {
    let end = contentEnd()
    guard end > 0, open(at: 0) else { return }
    lines.reserveCapacity(min(maxLines, 64))
    var index = 0
    var paragraphStart = true
    while index < end {
      let blanks = blanks(from: index, to: end)
      index = blanks.range.upperBound
      if bytes[index] == Self.newline {
        close()
        index += 1
        guard open(at: index) else { return }
        paragraphStart = true
        continue
      }
      let word = word(from: index, to: end)
      index = word.range.upperBound
      guard place(word, after: blanks, paragraphStart: paragraphStart) else { return }
      paragraphStart = false
    }
    close()
  }

  /// The line as a string, tabs expanded.
  private func string(of line: Line) -> String {
    if line.replacesWide { return "\u{FFFD}" }
    let utf8 = self.text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: line.start)
    let text = String(self.text[lower..<utf8.index(lower, offsetBy: line.end - line.start)])
    guard bytes[line.start..<line.end].contains(Self.tab) else { return text }
    var expanded = ""
    var column = 0
    for scalar in text.unicodeScalars {
      if scalar == "\t" {
        let spaces = Self.tabStop - column % Self.tabStop
        expanded.append(String(repeating: " ", count: spaces))
        column += spaces
      } else {
        expanded.unicodeScalars.append(scalar)
        column += DisplayWidth.of(scalar)
      }
    }
    return expanded
  }

  /// A run of bytes and its width: a word, or the blanks before it.
  fileprivate struct Span {
    var range: Range<Int>
    var width: Int
  }

  /// The run of blanks from `start`, its tabs measured from the end of the current line.
  private func blanks(from start: Int, to end: Int) -> Span {
    var index = start
    var width = 0
    while index < end, let blank = widthOfBlank(at: index, column: line.width + width) {
      width += blank
      index += 1
    }
    return Span(range: start..<index, width: width)
  }

  /// The word from `start` to the next blank or newline.
  private func word(from start: Int, to end: Int) -> Span {
    var index = start
    var width = 0
    while index < end {
      let byte = bytes[index]
      if byte > Self.space && byte < 0x80 {
        width += 1
        index += 1
        continue
      }
      if byte == Self.newline || widthOfBlank(at: index, column: 0) != nil { break }
      let (value, length) = scalar(at: index)
      width += value < 0x80 ? 1 : ScalarProperties(value).cursesWidth ?? 0
      index += length
    }
    return Span(range: start..<index, width: width)
  }

  /// Puts a word on the current line or the next; false when the lines ran out.
  private mutating func place(_ word: Span, after blanks: Span, paragraphStart: Bool) -> Bool {
    if line.isEmpty {
      if paragraphStart && blanks.width + word.width <= width {
        line = Line(
          start: blanks.range.lowerBound, end: word.range.upperBound,
          width: blanks.width + word.width)
        return true
      }
      if word.width <= width {
        line = Line(word)
        return true
      }
      return breakWord(word, after: 0)
    }
    if line.width + blanks.width + word.width <= width {
      line.end = word.range.upperBound
      line.width += blanks.width + word.width
      return true
    }
    guard word.width <= width else { return breakWord(word, after: blanks.width) }
    close()
    guard open(at: word.range.lowerBound) else { return false }
    line = Line(word)
    return true
  }

  /// Places a word wider than the line cluster by cluster, from the rest of the current line.
  private mutating func breakWord(_ word: Span, after blankWidth: Int) -> Bool {
    let utf8 = text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: word.range.lowerBound)
    let upper = utf8.index(lower, offsetBy: word.range.count)
    var position = word.range.lowerBound
    var pendingBlank = line.isEmpty ? 0 : blankWidth
    for cluster in text[lower..<upper] {
      let clusterWidth = DisplayWidth.of(cluster)
      if !line.isEmpty && line.width + pendingBlank + clusterWidth > width {
        close()
        guard open(at: position) else { return false }
        pendingBlank = 0
      }
      if line.isEmpty { line.start = position }
      position += cluster.utf8.count
      line.end = position
      line.width += pendingBlank + min(clusterWidth, width)
      line.replacesWide = line.replacesWide || clusterWidth > width
      pendingBlank = 0
    }
    return true
  }

  private mutating func close() { lines.append(string(of: line)) }

  /// Starts a new line at a byte offset; false, and the text truncated, when none is left.
  private mutating func open(at offset: Int) -> Bool {
    guard lines.count < maxLines else {
      truncated = true
      return false
    }
    line = Line(start: offset, end: offset, width: 0)
    return true
  }

  /// The width of the blank at `index` (a space, or a tab at `column`), nil if it is no blank.
  ///
  /// A space that a combining mark follows is part of the next cluster, so not a blank.
  @inline(__always)
  private func widthOfBlank(at index: Int, column: Int) -> Int? {
    switch bytes[index] {
    case Self.space:
      let next = index + 1
      if next < bytes.count && bytes[next] >= 0x80
        && ScalarProperties(scalar(at: next).value).extendsCluster
      {
        return nil
      }
      return 1
    case Self.tab:
      return Self.tabStop - column % Self.tabStop
    default:
      return nil
    }
  }

  /// The offset after the last byte that is not a space, a tab or a newline.
  private func contentEnd() -> Int {
    var end = bytes.count
    while end > 0 {
      let byte = bytes[end - 1]
      guard byte == Self.space || byte == Self.tab || byte == Self.newline else { break }
      end -= 1
    }
    return end
  }

  /// Decodes the scalar starting at `index` of the (valid) UTF-8.
  @inline(__always)
  private func scalar(at index: Int) -> (value: UInt32, length: Int) {
    let lead = UInt32(bytes[index])
    if lead < 0x80 { return (lead, 1) }
    let second = UInt32(bytes[index + 1] & 0x3F)
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | second, 2) }
    let third = UInt32(bytes[index + 2] & 0x3F)
    if lead < 0xF0 { return ((lead & 0x0F) << 12 | second << 6 | third, 3) }
    let fourth = UInt32(bytes[index + 3] & 0x3F)
    return ((lead & 0x07) << 18 | second << 12 | third << 6 | fourth, 4)
  }
}

extension LineBreaker.Line {
  /// A line holding one span.
  fileprivate init(_ span: LineBreaker.Span) {
    self.init(start: span.range.lowerBound, end: span.range.upperBound, width: span.width)
  }
}
