#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A feed as read: RSS 2.0, Atom 1.0 or JSON Feed 1.1, each entry's text made plain.
///
///     let feed = try FeedDocument.parse(bytes)
///     feed.title          // "Example"
///     feed.entries[0]     // FeedEntry(id: "tag:...", title: "...", text: "...", link: ...)
///     feed.interval       // 3600: `ttl` (minutes), `sy:updatePeriod`/`sy:updateFrequency`
package struct FeedDocument: Equatable, Sendable {
  package var title: String?
  /// The seconds between fetches the feed asks for, if it says.
  package var interval: Int?
  package var entries: [FeedEntry] = []

  /// The most entries read from one document.
  package static let entryLimit = 2_000

  package enum Problem: Error, Equatable, CustomStringConvertible {
    case xml(String)
    case notAFeed(String)

    package var description: String {
      switch self {
      case .xml(let message): "not a feed: \(message)"
      case .notAFeed(let message): message
      }
    }
  }

  /// Parses a feed: JSON Feed when its first character is `{`, else XML (RSS or Atom).
  package static func parse(_ bytes: [UInt8]) throws(Problem) -> FeedDocument {
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if first == UInt8(ascii: "{") { return try jsonFeed(bytes) }
    let root: XMLReader.Element
    do {
      root = try XMLReader.parse(bytes)
    } catch {
      throw .xml(error.message)
    }
    switch root.localName {
    case "rss", "RDF": return rss(root)
    case "feed": return atom(root)
    default: throw .notAFeed("not a feed: the document is <\(root.name)>, not RSS or Atom")
    }
  }

  private static func rss(_ root: XMLReader.Element) -> FeedDocument {
    let channel = root.child("channel") ?? root
    var feed = FeedDocument(title: channel.text(of: "title").map(HTMLText.plain))
    if let ttl = channel.text(of: "ttl").flatMap({ Int($0) }), ttl > 0 {
      feed.interval = ttl * 60
    }
    if let period = channel.text(of: "sy:updatePeriod") {
      let seconds =
        [
          "hourly": 3600, "daily": 86_400, "weekly": 604_800, "monthly": 2_592_000,
          "yearly": 31_536_000,
        ][period.lowercased()]
      let frequency = max(channel.text(of: "sy:updateFrequency").flatMap { Int($0) } ?? 1, 1)
      if let seconds { feed.interval = seconds / frequency }
    }
    // RSS 1.0 (RDF) puts its items beside the channel.
    let items = channel.children("item") + (root.localName == "RDF" ? root.children("item") : [])
    for item in items.prefix(entryLimit) {
      let html = item.text(of: "content:encoded") ?? item.text(of: "description") ?? ""
      let link =
        item.text(of: "link")
        ?? item.child("guid").flatMap { guid in
          guid.attributes["isPermaLink"] == "false" ? nil : guid.text.trimmingSpaces
        }
      let id = item.text(of: "guid") ?? link ?? item.text(of: "title") ?? html
      feed.entries.append(
        FeedEntry(
          id: id, title: item.text(of: "title").map(HTMLText.plain), text: HTMLText.plain(html),
          link: link,
          published: (item.text(of: "pubDate") ?? item.text(of: "dc:date")).flatMap(
            FeedDates.parse)))
    }
    return feed
  }

  private static func atom(_ root: XMLReader.Element) -> FeedDocument {
    var feed = FeedDocument(title: root.child("title").map(textConstruct))
    for entry in root.children("entry").prefix(entryLimit) {
      let links = entry.children("link")
      let link =
        links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" }?.attributes["href"]
      let content = entry.child("content").map(textConstruct)
      let summary = entry.child("summary").map(textConstruct)
      let title = entry.child("title").map(textConstruct)
      let id = entry.text(of: "id") ?? link ?? title ?? ""
      feed.entries.append(
        FeedEntry(
          id: id, title: title, text: content ?? summary ?? "", link: link,
          published: (entry.text(of: "published") ?? entry.text(of: "updated")).flatMap(
            FeedDates.parse)))
    }
    return feed
  }

  /// An Atom text construct as plain text: `type="html"` and `"xhtml"` lose their markup.
  private static func textConstruct(_ element: XMLReader.Element) -> String {
    switch element.attributes["type"] {
    case "html": return HTMLText.plain(element.text)
    case "xhtml": return HTMLText.plain(flatten(element))
    default: return element.text.trimmingSpaces
    }
  }

  /// An XHTML element's text with its children's, block elements on lines of their own.
  private static func flatten(_ element: XMLReader.Element) -> String {
    let blocks: Set<Substring> = ["p", "div", "br", "li", "h1", "h2", "h3", "h4", "blockquote"]
    var text = ""
    for piece in element.content {
      switch piece {
      case .text(let piece): text += piece
      case .child(let index):
        let child = element.children[index]
        let inner = flatten(child)
        text += blocks.contains(child.localName) ? "\n\(inner)\n" : inner
      }
    }
    return text
  }

  private struct JSONFeed: Decodable {
    var version: String?
    var title: String?
    var items: [Item]?

    struct Item: Decodable {
      var id: JSONID?
      var url: String?
      var title: String?
      var content_text: String?
      var content_html: String?
      var summary: String?
      var date_published: String?
    }

    /// JSON Feed 1.0 allowed a number as an id.
    struct JSONID: Decodable {
      var text: String
      init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
          self.text = text
        } else {
          text = String(try container.decode(Int.self))
        }
      }
    }
  }

  private static func jsonFeed(_ bytes: [UInt8]) throws(Problem) -> FeedDocument {
    guard !JSONNestingGuard.exceeds(bytes) else {
      throw .notAFeed("not a feed: JSON nested too deep")
    }
    let decoded: JSONFeed
    do {
      decoded = try JSONDecoder().decode(JSONFeed.self, from: Data(bytes))
    } catch {
      throw .notAFeed("not a feed: not JSON Feed")
    }
    guard decoded.version?.hasPrefix("https://jsonfeed.org/version/") == true else {
      throw .notAFeed("not a feed: JSON without a JSON Feed version")
    }
    var feed = FeedDocument(title: decoded.title.map(HTMLText.plain))
    for item in (decoded.items ?? []).prefix(entryLimit) {
      let text =
        item.content_text ?? item.content_html.map(HTMLText.plain) ?? item.summary ?? ""
      let id = item.id?.text ?? item.url ?? item.title ?? text
      feed.entries.append(
        FeedEntry(
          id: id, title: item.title, text: text, link: item.url,
          published: item.date_published.flatMap(FeedDates.parse)))
    }
    return feed
  }
}

/// One entry of a feed.
package struct FeedEntry: Equatable, Sendable {
  package var id: String
  package var title: String?
  package var text: String
  package var link: String?
  /// Seconds since 1970.
  package var published: Int64?

  package init(id: String, title: String?, text: String, link: String?, published: Int64?) {
    self.id = id
    self.title = title
    self.text = text
    self.link = link
    self.published = published
  }
}

/// A JSON document nested deeper than a feed ever is: refused before the decoder sees it.
enum JSONNestingGuard {
  static func exceeds(_ bytes: [UInt8], limit: Int = 32) -> Bool {
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          inString = false
        }
        continue
      }
      switch byte {
      case 0x22: inString = true
      case 0x7B, 0x5B:
        depth += 1
        if depth > limit { return true }
      case 0x7D, 0x5D: depth -= 1
      default: break
      }
    }
    return false
  }
}

/// The dates feeds write: RFC 822 (RSS's `Tue, 10 Jun 2003 04:00:00 GMT`) and RFC 3339
/// (Atom's and JSON Feed's `2003-12-13T18:30:02Z`), as seconds since 1970.
package enum FeedDates {
  package static func parse(_ text: String) -> Int64? {
    rfc3339(text) ?? rfc822(text)
  }

  static func rfc3339(_ text: String) -> Int64? {
    let chars = Array(text.trimmingSpaces.utf8)
    guard chars.count >= 19, chars[4] == 0x2D, chars[7] == 0x2D,
      chars[10] == 0x54 || chars[10] == 0x74 || chars[10] == 0x20, chars[13] == 0x3A,
      chars[16] == 0x3A
    else { return nil }
    func number(_ range: Range<Int>) -> Int? { Int(String(decoding: chars[range], as: UTF8.self)) }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
    else { return nil }
    var rest = chars[19...]
    if rest.first == 0x2E { rest = rest.drop(while: { $0 == 0x2E || (0x30...0x39).contains($0) }) }
    var offset = 0
    if let sign = rest.first, sign == 0x2B || sign == 0x2D, rest.count >= 6 {
      let digits = Array(rest.dropFirst())
      guard let h = Int(String(decoding: digits[0..<2], as: UTF8.self)),
        let m = Int(String(decoding: digits[3..<5], as: UTF8.self))
      else { return nil }
      offset = (h * 3600 + m * 60) * (sign == 0x2B ? 1 : -1)
    }
    return seconds(year, month, day, hour, minute, second).map { $0 - Int64(offset) }
  }

  static func rfc822(_ text: String) -> Int64? {
    var parts = text.trimmingSpaces.split(whereSeparator: { $0 == " " || $0 == "," }).map(
      String.init)
    if let first = parts.first, Int(first) == nil { parts.removeFirst() }  // The weekday.
    guard parts.count >= 4, let day = Int(parts[0]), var year = Int(parts[2]) else { return nil }
    let months = [
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    guard let month = months.firstIndex(of: String(parts[1].prefix(3)).lowercased()) else {
      return nil
    }
    if year < 100 { year += year < 70 ? 2000 : 1900 }
    let time = parts[3].split(separator: ":").compactMap { Int($0) }
    guard time.count >= 2 else { return nil }
    var offset = 0
    if parts.count >= 5 {
      let zone = parts[4]
      if let sign = zone.first, sign == "+" || sign == "-", let value = Int(zone.dropFirst()) {
        offset = (value / 100 * 3600 + value % 100 * 60) * (sign == "+" ? 1 : -1)
      } else {
        let zones = [
          "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
        ]
        offset = (zones[zone.uppercased()] ?? 0) * 3600
      }
    }
    return seconds(year, month + 1, day, time[0], time[1], time.count > 2 ? time[2] : 0).map {
      $0 - Int64(offset)
    }
  }

  /// Seconds since 1970 of a UTC date and time (days from civil, Howard Hinnant's algorithm).
  static func seconds(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int, _ s: Int) -> Int64? {
    guard (1...12).contains(m), (1...31).contains(d), (0...23).contains(h), (0...59).contains(min),
      (0...60).contains(s)
    else { return nil }
    let year = m <= 2 ? y - 1 : y
    let era = (year >= 0 ? year : year - 399) / 400
    let yoe = year - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return Int64(days) * 86_400 + Int64(h * 3600 + min * 60 + s)
  }
}

/// HTML made plain text: tags gone (`script` and `style` with their content), block elements
/// and `<br>` on lines of their own, the common entities and character references decoded,
/// runs of spaces made one. The card's sanitising still runs on the result, as on every card.
package enum HTMLText {
  package static func plain(_ html: String) -> String {
    guard html.contains("<") || html.contains("&") else { return collapse(html) }
    var out = ""
    var i = html.startIndex
    let blocks: Set<String> = [
      "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
      "tr", "pre", "hr", "section", "article", "figure", "table",
    ]
    while i < html.endIndex {
      let c = html[i]
      if c == "<", let close = html[i...].firstIndex(of: ">") {
        let tag = html[html.index(after: i)..<close]
        let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
          .lowercased()
        if (name == "script" || name == "style") && !tag.hasPrefix("/") {
          if let end = html[close...].firstRange(of: "</\(name)")
            ?? html[close...].firstRange(of: "</\(name.uppercased())")
          {
            i =
              html[end.upperBound...].firstIndex(of: ">").map { html.index(after: $0) }
              ?? html.endIndex
            continue
          }
        }
        if blocks.contains(name) { out += "\n" }
        i = html.index(after: close)
        continue
      }
      if c == "&", let semicolon = html[i...].prefix(12).firstIndex(of: ";") {
        let name = String(html[html.index(after: i)..<semicolon])
        if let decoded = entity(name) {
          out += decoded
          i = html.index(after: semicolon)
          continue
        }
      }
      out.append(c)
      i = html.index(after: i)
    }
    return collapse(out)
  }

  static func entity(_ name: String) -> String? {
    let named: [String: String] = [
      "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "hellip": "…",
      "mdash": "—", "ndash": "–", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
      "copy": "©", "reg": "®", "trade": "™", "laquo": "«", "raquo": "»", "middot": "·",
      "bull": "•", "eacute": "é", "egrave": "è", "agrave": "à", "uuml": "ü", "ouml": "ö",
      "auml": "ä", "szlig": "ß", "ccedil": "ç",
    ]
    if let text = named[name] { return text }
    guard name.hasPrefix("#") else { return nil }
    let digits = name.dropFirst()
    let value =
      digits.hasPrefix("x") || digits.hasPrefix("X")
      ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
    return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
  }

  /// Spaces and tabs made one space; lines trimmed; at most one blank line in a row.
  static func collapse(_ text: String) -> String {
    var lines: [String] = []
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      let line = words.joined(separator: " ")
      if line.isEmpty, lines.last?.isEmpty ?? true { continue }
      lines.append(line)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}
