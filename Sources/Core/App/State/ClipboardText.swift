import CardText
import FeedCore

/// What `y` copies of a card: its title, text, source and link, a paragraph each, sanitised
/// like everything drawn, and at most `maxBytes` of UTF-8 (cut between two characters).
///
///     ClipboardText.of(card)  // "Octopuses have three hearts\n\nTwo pump blood...\n\nSmithsonian"
public enum ClipboardText {
  /// The most a copy takes: terminals and tmux refuse or cut longer OSC 52 sequences.
  public static let maxBytes = 8 * 1024

  public static func of(_ card: Card) -> String {
    let parts = [
      card.title.map(Sanitizer.sanitizeLine), Sanitizer.sanitize(card.body),
      card.source.map(Sanitizer.sanitizeLine), card.url.map(Sanitizer.sanitizeLine),
    ]
    let text = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    return cut(text, to: maxBytes)
  }

  /// `text`'s longest prefix of whole characters within `limit` bytes of UTF-8.
  static func cut(_ text: String, to limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    var kept = ""
    var bytes = 0
    for character in text {
      let size = character.utf8.count
      guard bytes + size <= limit else { break }
      kept.append(character)
      bytes += size
    }
    return kept
  }
}
