/// Makes untrusted text safe to draw.
public enum Sanitizer {
  /// Removes what must never reach a terminal and normalises every grapheme cluster to a form
  /// on which the layout, ncurses and the terminal agree on width.
  public static func sanitize(_ text: String) -> String {
    // Placeholder until the CardText issue lands.
    String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" }))
  }

  /// Sanitises text for one line of output: LF and TAB become spaces.
  public static func sanitizeLine(_ text: String) -> String {
    String(sanitize(text).map { $0 == "\n" || $0 == "\t" ? " " : $0 })
  }
}
