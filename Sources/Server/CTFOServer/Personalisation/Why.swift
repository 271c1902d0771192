import CardText

/// Why a card is among an install's next cards, in words (the score's `reason`).
enum Why: Sendable, Equatable {
  /// Few readers have reacted to it: exploration put it here.
  case new
  /// Its readers' reactions.
  case popular(CardEvidence)
  /// The install loved this card, and readers who loved it loved this one.
  case similar(String)

  /// `titles`: a card's title (untrusted: made one safe line and cut to `limit` characters).
  func text(titles: (String) -> String?, limit: Int) -> String {
    switch self {
    case .new:
      return "new: few have seen it yet"
    case .popular(let held):
      let share = held.readers > 0 ? (100 * held.ctfo + held.readers / 2) / held.readers : 0
      return "loved by \(share) % of \(Self.grouped(held.readers)) readers"
    case .similar(let card):
      let title = Self.bounded(titles(card) ?? card, limit: limit)
      return "readers who loved \u{201C}\(title)\u{201D} loved this"
    }
  }

  /// One line, no control or bidi characters, at most `limit` characters (… when cut).
  static func bounded(_ title: String, limit: Int) -> String {
    let line = Sanitizer.sanitizeLine(String(title.prefix(limit * 4)))
    guard line.count > limit else { return line }
    return String(line.prefix(max(0, limit - 1))) + "\u{2026}"
  }

  /// 1204 → "1,204".
  static func grouped(_ number: Int) -> String {
    var digits = String(number.magnitude)
    var groups: [Substring] = []
    while digits.count > 3 {
      groups.insert(digits.suffix(3), at: 0)
      digits.removeLast(3)
    }
    groups.insert(Substring(digits), at: 0)
    return (number < 0 ? "-" : "") + groups.joined(separator: ",")
  }
}
