import CardText
import FeedCore
import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How `ctfo history` writes its entries: a line each, JSON Lines (`--json`), CSV (RFC 4180,
/// a header row, no cell a spreadsheet takes for a formula) or Markdown (a section per card).
/// Every format but JSON sanitises the text, as the cards are untrusted and the output may be
/// a terminal; JSON escapes every control (C1 and bidi controls too).
enum HistoryFormat: String, CaseIterable {
  case text, jsonl, csv, markdown

  /// True for the formats that carry each card's text, source and link.
  var carriesCards: Bool { self != .text }
}

/// Writes history entries, with their cards' text where the format carries it.
struct HistoryWriter {
  let format: HistoryFormat
  private(set) var out = StandardOutput()

  init(format: HistoryFormat) { self.format = format }

  /// The CSV columns, in order.
  static let csvHeader = ["index", "shown_at", "reaction", "type", "id", "title", "text", "source", "url"]

  mutating func write(_ entries: [HistoryEntry], details: [String: CardDetails]) {
    if format == .csv { csvRow(Self.csvHeader) }
    for entry in entries {
      let number = entry.index + 1
      let time = Timestamp.iso8601(entry.shownAt)
      let card = details[entry.cardID]
      switch format {
      case .text:
        let reaction = entry.reaction?.rawValue ?? "-"
        out.line(
          "\(String(number).leftPad(6))  \(time)  \(reaction.rightPad(4))  "
            + Sanitizer.sanitizeLine("\(entry.type): \(entry.title ?? entry.cardID)"))
      case .jsonl:
        out.jsonObject([
          "index": .int(number), "id": .string(entry.cardID), "type": .string(entry.type),
          "title": .string(entry.title), "shown_at": .string(time),
          "reaction": .string(entry.reaction?.rawValue), "text": .string(card?.body),
          "source": .string(card?.source), "url": .string(card?.url),
        ])
      case .csv:
        csvRow(
          [
            String(number), time, entry.reaction?.rawValue ?? "", entry.type, entry.cardID,
            entry.title ?? "", card?.body ?? "", card?.source ?? "", card?.url ?? "",
          ].map { Self.inertCell(Sanitizer.sanitize($0)) })
      case .markdown:
        markdown(entry, number: number, time: time, card: card)
      }
    }
  }

  mutating func finish() throws(CLIError) { try out.finish() }

  /// A cell a spreadsheet shows as text: one that starts with `=`, `+`, `-`, `@`, a tab or a
  /// carriage return would be read as a formula (`=HYPERLINK(…)`), so it gets a `'` before it,
  /// as OWASP advises for CSV.
  static func inertCell(_ field: String) -> String {
    guard let first = field.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first)
    else { return field }
    return "'" + field
  }

  /// One CSV record: each field quoted when it holds a comma, a quote or a line break (its
  /// quotes doubled), the record ended by CRLF (RFC 4180).
  private mutating func csvRow(_ fields: [String]) {
    let quoted = fields.map { field in
      guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
      else { return field }
      return "\"" + field.split(separator: "\"", omittingEmptySubsequences: false)
        .joined(separator: "\"\"") + "\""
    }
    out.raw(quoted.joined(separator: ","))
    out.raw("\r")
    out.endLine()
  }

  /// A card as a Markdown section: its title as a heading, what and when, its text, its
  /// source and link.
  private mutating func markdown(
    _ entry: HistoryEntry, number: Int, time: String, card: CardDetails?
  ) {
    let title = Sanitizer.sanitizeLine(entry.title ?? entry.cardID)
    out.line("## " + Markdown.escaped(title.isEmpty ? entry.cardID : title))
    out.line("")
    let reaction = entry.reaction?.rawValue ?? "no reaction"
    out.line(
      "*" + Markdown.escaped("#\(number) · \(Sanitizer.sanitizeLine(entry.type)) · \(reaction) · \(time)")
        + "*")
    out.line("")
    if let card {
      for paragraph in Sanitizer.sanitize(card.body).split(separator: "\n", omittingEmptySubsequences: true) {
        out.line(Markdown.escaped(String(paragraph)))
        out.line("")
      }
      let source = card.source.map { Markdown.escaped(Sanitizer.sanitizeLine($0)) }
      let link = card.url.flatMap(Markdown.autolink)
      switch (source, link) {
      case (let source?, let link?): out.line("Source: \(source), \(link)")
      case (let source?, nil): out.line("Source: \(source)")
      case (nil, let link?): out.line("Link: \(link)")
      case (nil, nil): break
      }
      if source != nil || link != nil { out.line("") }
    } else {
      out.line("*(no deck holds this card now)*")
      out.line("")
    }
  }
}

/// Text made literal in CommonMark: a card's words never become markup or HTML.
enum Markdown {
  /// `text` with every character Markdown could read as markup escaped with a backslash
  /// (CommonMark escapes any ASCII punctuation), and a line-start list or heading marker too.
  static func escaped(_ text: String) -> String {
    var result = ""
    for (i, character) in text.enumerated() {
      if "\\`*_{}[]<>#|~!&".contains(character) {
        result.append("\\")
      } else if i == 0, "-+=".contains(character) {
        result.append("\\")
      }
      result.append(character)
    }
    // "1." or "1)" at the start would begin a numbered list.
    let digits = result.prefix { $0.isASCII && $0.isNumber }.count
    if digits > 0, let next = result.dropFirst(digits).first, next == "." || next == ")" {
      result.insert("\\", at: result.index(result.startIndex, offsetBy: digits))
    }
    return result
  }

  /// An autolink (`<https://...>`) for an http or https link made only of characters a URL
  /// may hold; nil for anything else.
  static func autolink(_ url: String) -> String? {
    let lower = url.lowercased()
    guard lower.hasPrefix("https://") || lower.hasPrefix("http://"),
      url.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x3C && $0 != 0x3E && $0 != 0x5C })
    else { return nil }
    return "<\(url)>"
  }
}

/// `--since` and `--until`: ISO 8601 dates (`2026-11-28`, a whole day, UTC) or times
/// (`2026-11-28T09:30:00Z`), as seconds since 1970.
enum HistoryDate {
  /// The first second `text` names; nil when it is no such date or time.
  static func start(_ text: String) -> Double? { parse(text)?.start }

  /// The first second after what `text` names (the next day for a date).
  static func end(_ text: String) -> Double? { parse(text).map { $0.start + $0.length } }

  private static func parse(_ text: String) -> (start: Double, length: Double)? {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      var n = 0
      for byte in bytes[range] {
        guard (0x30...0x39).contains(byte) else { return nil }
        n = n * 10 + Int(byte - 0x30)
      }
      return n
    }
    guard bytes.count == 10 || bytes.count == 20, let year = number(0..<4), bytes[4] == 0x2D,
      let month = number(5..<7), bytes[7] == 0x2D, let day = number(8..<10),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    guard bytes.count == 20 else { return valid(parts, day: day).map { ($0, 86_400) } }
    guard bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      hour < 24, minute < 60, second < 60
    else { return nil }
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    return valid(parts, day: day).map { ($0, 1) }
  }

  /// The time of `parts` (UTC), unless its day does not exist (timegm would roll it over).
  private static func valid(_ parts: tm, day: Int) -> Double? {
    var parts = parts
    let seconds = timegm(&parts)
    return parts.tm_mday == Int32(day) ? Double(seconds) : nil
  }
}
