import CardText

/// The sanitiser and the layout. The first three bytes choose the width (0 to 99), the height
/// (0 to 39, or the whole card for 255) and the truncation mark; the rest is the title, up to
/// the first 0xFF byte, then the body, invalid UTF-8 being repaired as from a file.
///
/// Checks that sanitised text has no control, bidi control or ZWJ, that sanitising it again
/// changes nothing, and that a layout never has a line wider than the width or more lines
/// than the height.
enum TextHarness {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 3 else { return }
    let width = Int(bytes[0]) % 100
    let height = bytes[1] == 255 ? Int.max : Int(bytes[1]) % 40
    let mark: TruncationMark = bytes[2] & 1 == 0 ? .ellipsis : .ascii
    let text = bytes.dropFirst(3)
    let split = text.firstIndex(of: 0xFF)
    let title = split.map { checkedSanitize(text[..<$0]) }
    let body = checkedSanitize(split.map { text[($0 + 1)...] } ?? text)
    let layout = CardLayout.layout(
      title: title, body: body, width: width, height: height, mark: mark)
    precondition(layout.lines.count <= height, "\(layout.lines.count) lines for \(height)")
    for line in layout.lines {
      precondition(DisplayWidth.of(line) <= width, "\(shown(line)) is wider than \(width)")
      precondition(!line.utf8.contains(0x0A), "\(shown(line)) holds a line feed")
    }
  }

  /// The sanitised text, checked: nothing forbidden, idempotent, and one line for
  /// `sanitizeLine`.
  private static func checkedSanitize(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
    let clean = Sanitizer.sanitize(utf8: bytes)
    if let bad = clean.unicodeScalars.first(where: isForbidden) {
      preconditionFailure("U+\(String(bad.value, radix: 16)) left in \(shown(clean))")
    }
    let again = Sanitizer.sanitize(clean)
    precondition(again.utf8.elementsEqual(clean.utf8), "\(shown(clean)) became \(shown(again))")
    let line = Sanitizer.sanitizeLine(clean)
    precondition(!line.utf8.contains { $0 == 0x0A || $0 == 0x09 }, "\(shown(line)) is not one line")
    return clean
  }
}
