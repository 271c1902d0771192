extension Sanitizer {
  /// Sanitises text for one line of output (an error message, a label, a list entry): LF and
  /// TAB become spaces.
  public static func sanitizeLine(_ text: String) -> String {
    String(sanitize(text).map { $0 == "\n" || $0 == "\t" ? " " : $0 })
  }
}
