extension Sanitizer {
  /// Sanitises text for one line of output (an error message, a label, a list entry): LF and
  /// TAB become spaces.
  public static func sanitizeLine(_ text: String) -> String {
    let clean = sanitize(text)
    guard clean.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 }) else { return clean }
    return String(decoding: clean.utf8.map { $0 == 0x0A || $0 == 0x09 ? 0x20 : $0 }, as: UTF8.self)
  }
}

extension Sanitizer {
  /// Whether `text` prints as it is on one line: no scalar `sanitize` removes (controls, bidi
  /// controls, invisible format characters, line and paragraph separators, ...), no LF or TAB.
  public static func isSafeLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0 == "\n" || $0 == "\t" || ScalarProperties($0).isRemoved }
  }
}
