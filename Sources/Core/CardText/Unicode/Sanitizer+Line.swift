extension Sanitizer {
  /// Sanitises text for one line of output (an error message, a label, a list entry): LF and
  /// TAB become spaces.
  public static func sanitizeLine(_ text: String) -> String {
    let clean = sanitize(text)
    guard clean.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 }) else { return clean }
    return String(decoding: clean.utf8.map { $0 == 0x0A || $0 == 0x09 ? 0x20 : $0 }, as: UTF8.self)
  }
}
