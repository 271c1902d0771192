import FeedCore
import FlatJSON

/// A feed kept as a JSON Lines deck: each fetch's entries become cards of the feed's type, and
/// the deck file is written again whole (then the index and the running app's live rules for
/// decks take it from there: new entries appear as live appends).
///
/// A card's id is the feed's type and a hash of the entry's id (its guid, Atom id or JSON Feed
/// id), so an entry fetched again is the same card. Entries gone from the feed stay, behind
/// the new ones, until the deck holds `entryLimit` cards. A link that is not http(s) is
/// dropped; the text is plain (HTML made text by `HTMLText`) and is sanitised on its way to
/// the screen as every card is.
package enum FeedDeck {
  /// The most cards one feed keeps.
  package static let entryLimit = 500

  /// The cards of `feed` for the type `type`, in the feed's order.
  package static func cards(of feed: FeedDocument, type: String) -> [Card] {
    var seen = Set<String>()
    let source = feed.title.map { Self.oneLine($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? type
    return feed.entries.compactMap { entry in
      let id = "feed:\(type):" + String(FortuneDeck.hash(Array(entry.id.utf8)), radix: 16)
      guard seen.insert(id).inserted else { return nil }
      let link = entry.link.flatMap(webLink)
      let title = entry.title.map(oneLine).flatMap { $0.isEmpty ? nil : $0 }
      var body = entry.text.trimmingSpaces
      if body.isEmpty { body = title ?? link ?? "" }
      guard !body.isEmpty else { return nil }
      let date = entry.published.map { " · " + day(of: $0) } ?? ""
      return Card(
        id: id, type: type, title: title == body ? nil : title, body: body,
        source: source + date, url: link)
    }
  }

  /// The cards a deck keeps after a fetch: the fetched ones first, then those it held that
  /// the feed no longer lists, at most `limit` in all.
  package static func merge(old: [Card], new: [Card], limit: Int = entryLimit) -> [Card] {
    let fresh = Set(new.map(\.id))
    return Array((new + old.filter { !fresh.contains($0.id) }).prefix(limit))
  }

  /// The deck file's text: a header naming the type and its label, then a card a line.
  package static func jsonLines(type: String, label: String, cards: [Card]) -> [UInt8] {
    var out: [UInt8] = []
    out += Array(#"{"deck":"#.utf8)
    JSONText.append("feed: \(label)", to: &out)
    out += Array(#","types":{"#.utf8)
    JSONText.append(type, to: &out)
    out += Array(#":{"label":"#.utf8)
    JSONText.append(label, to: &out)
    out += Array("}}}\n".utf8)
    for card in cards {
      out += Array(#"{"id":"#.utf8)
      JSONText.append(card.id, to: &out)
      out += Array(#","type":"#.utf8)
      JSONText.append(card.type, to: &out)
      out += Array(#","title":"#.utf8)
      JSONText.append(card.title, to: &out)
      out += Array(#","body":"#.utf8)
      JSONText.append(card.body, to: &out)
      out += Array(#","source":"#.utf8)
      JSONText.append(card.source, to: &out)
      out += Array(#","url":"#.utf8)
      JSONText.append(card.url, to: &out)
      out += Array("}\n".utf8)
    }
    return out
  }

  /// `link` when it is an http or https address, else nil (`javascript:`, `file:`, `data:`).
  package static func webLink(_ link: String) -> String? {
    let trimmed = link.trimmingSpaces
    let lower = trimmed.lowercased()
    guard lower.hasPrefix("https://") || lower.hasPrefix("http://"),
      !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
    else { return nil }
    return trimmed
  }

  /// A type name for a feed at `url`: its host without `www.`, dots made dashes.
  package static func typeName(forURL url: String) -> String {
    let rest = url.split(separator: "://", maxSplits: 1).last ?? Substring(url)
    var host = String(rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" }).lowercased()
    if host.hasPrefix("www.") { host.removeFirst(4) }
    let cleaned = String(
      host.unicodeScalars.map { scalar -> Character in
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
          ? Character(scalar) : "-"
      }
    ).prefix(DeckName.typeLimit)
    return cleaned.isEmpty ? "feed" : String(cleaned)
  }

  /// A type name made of a title (`Bits from Debian` → `bits-from-debian`); nil when it has
  /// no ASCII letter or digit.
  package static func typeName(forTitle title: String) -> String? {
    var name = ""
    for scalar in title.lowercased().unicodeScalars {
      if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
        name.unicodeScalars.append(scalar)
      } else if !name.isEmpty, !name.hasSuffix("-") {
        name += "-"
      }
    }
    while name.hasSuffix("-") { name.removeLast() }
    return name.isEmpty ? nil : String(name.prefix(DeckName.typeLimit))
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == " " })
      .joined(separator: " ")
  }

  /// `2026-12-02` for a time in seconds since 1970 (UTC).
  static func day(of seconds: Int64) -> String {
    let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(y)-\(two(m))-\(two(d))"
  }
}

/// The feeds of an OPML file (what newsboat and other readers export): every
/// `outline` with an `xmlUrl`, at any depth (folders nest them), with its `title` or `text`.
package enum OPML {
  package struct Outline: Equatable, Sendable {
    package var url: String
    package var title: String?
  }

  package static func feeds(in bytes: [UInt8]) throws(XMLReader.Problem) -> [Outline] {
    let root = try XMLReader.parse(bytes)
    guard root.localName == "opml" else {
      throw XMLReader.Problem(message: "not OPML: the document is <\(root.name)>")
    }
    var found: [Outline] = []
    func walk(_ element: XMLReader.Element) {
      for child in element.children("outline") {
        if let url = child.attributes["xmlUrl"]?.trimmingSpaces, !url.isEmpty {
          found.append(
            Outline(url: url, title: child.attributes["title"] ?? child.attributes["text"]))
        }
        walk(child)
      }
    }
    walk(root.child("body") ?? root)
    return found
  }
}
