import App
import CardText

/// Text from outside the app (type labels, deck problems, history titles) made safe for one
/// line: sanitised, with line breaks and tabs turned into spaces.
enum Untrusted {
  static func line(_ text: String) -> String { Sanitizer.sanitizeLine(text) }

  /// Untrusted text wrapped to `width` in at most `height` lines.
  static func wrapped(_ text: String, width: Int, height: Int) -> [String] {
    let clean = Sanitizer.sanitize(text)
    return CardLayout.layout(title: nil, body: clean, width: max(width, 1), height: height).lines
  }
}
