import FeedCore
@testable import Decks

/// The deck line parser, one line per LF of the input, as `DeckFile` hands them over.
///
/// Checks that no card it returns has an empty id or type or one with a control character,
/// and that every line the fast scanner reads gives the same card through the JSON decoder.
enum DeckHarness {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    var parser = DeckParser()
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      let line = UnsafeRawBufferPointer(rebasing: line)
      if case .card(let card) = parser.parse(line) {
        checkName(card.id, of: card)
        checkName(card.type, of: card)
      }
      if let fast = FlatCardScanner.card(line) {
        let decoded = DeckParser().decode(line)
        precondition(
          decoded == .card(fast), "the fast scanner read \(fast), the decoder \(decoded)")
      }
    }
  }

  private static func checkName(_ name: String, of card: Card) {
    precondition(!name.isEmpty, "empty id or type in \(card)")
    precondition(!name.unicodeScalars.contains(where: isControl), "control in \(shown(name))")
  }
}
