import CardText
import FeedCore

/// The rule for card ids and type names, the one place it is written: `DeckParser` applies it
/// to every card and header, whether the fast scanner or the JSON decoder read the line.
///
/// A name is never empty, holds no control character (C0 with NUL, DEL, C1) nor any other
/// character the sanitiser removes (bidi controls, ZWJ, U+2028: `Sanitizer.isInvisible`), and
/// is at most `idLimit` (ids) or `typeLimit` (type names) bytes of UTF-8.
package enum DeckName {
  static let idLimit = 256
  static let typeLimit = 64

  /// What is wrong with the card's id or type, nil when both are fine.
  package static func problem(of card: Card) -> String? {
    problem(card.id, named: #""id""#, limit: idLimit)
      ?? problem(card.type, named: #""type""#, limit: typeLimit)
      ?? (card.body.allSatisfy(\.isWhitespace) ? #""body" is empty"# : nil)
  }

  /// What is wrong with a type name, nil when it is fine.
  package static func problem(ofType name: String) -> String? {
    problem(name, named: "a type name", limit: typeLimit)
  }

  /// What is wrong with the first bad type the header declares (its name, or a colour no
  /// terminal has), nil when none is.
  static func problem(of header: DeckHeader) -> String? {
    header.types.lazy.compactMap { type in
      problem(type.name, named: "a type name", limit: typeLimit) ?? colourProblem(of: type)
    }.first
  }

  private static func colourProblem(of type: CardType) -> String? {
    guard let colour = type.colour, TerminalColour(rawValue: colour) == nil else { return nil }
    let known = TerminalColour.allCases.map(\.rawValue).joined(separator: ", ")
    return "type \"\(type.name)\": unknown colour \"\(colour)\"; the colours are \(known)"
  }

  /// The problem with `name`, called `what` in the message, or nil.
  private static func problem(_ name: String, named what: String, limit: Int) -> String? {
    if name.isEmpty { return "\(what) is empty" }
    if name.unicodeScalars.contains(where: isControl) { return "\(what) has a control character" }
    if !name.utf8.allSatisfy({ $0 < 0x80 }),
      name.unicodeScalars.contains(where: Sanitizer.isInvisible)
    {
      return "\(what) has an invisible or bidi control character"
    }
    if name.utf8.count > limit { return "\(what) is over \(limit) bytes" }
    return nil
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
