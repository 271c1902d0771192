import FeedCore
import FlatJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one line of a deck file holds.
package enum DeckLine: Equatable {
  case blank
  case header(DeckHeader)
  case card(Card)
  /// The line is skipped; the message says what is wrong with it.
  case problem(String)
}

/// A deck's optional first line: `{"deck": "name", "types": {"fact": {"label": ...}}}`.
package struct DeckHeader: Equatable, Codable {
  package var name: String?
  package var types: [CardType]

  package init(name: String?, types: [CardType]) {
    self.name = name
    self.types = types
  }
}

/// Parses deck lines, one at a time: JSON Lines, a header allowed only before the first card.
///
/// Invalid UTF-8 is repaired to U+FFFD first; unknown fields are ignored. Ids and type names
/// are checked here, after either path, by `DeckName`.
package struct DeckParser {
  /// The most types one deck may have, in its header and its cards together: a card of one
  /// more type is a problem of its line, and a header naming more is refused whole.
  package static let typesPerDeck = 64

  private let decoder = JSONDecoder()
  private var sawContent = false
  /// The types met so far in this deck.
  private var types: Set<String> = []

  /// Parses a line as `DeckFile` reads it; a line over the length limit is a problem.
  package init() {}

  package mutating func parse(_ line: DeckFile.Line) -> DeckLine {
    switch line {
    case .text(let bytes): return parse(bytes)
    case .tooLong:
      sawContent = true
      return .problem("line too long (over \(DeckFile.lineLimit >> 20) MiB)")
    }
  }

  package mutating func parse(_ bytes: UnsafeRawBufferPointer) -> DeckLine {
    guard bytes.contains(where: { !Self.isSpace($0) }) else { return .blank }
    defer { sawContent = true }
    return countTypes(
      Self.checkNames(FlatCardScanner.card(bytes).map(DeckLine.card) ?? decode(bytes)))
  }

  /// The line, or a problem when it takes the deck past `typesPerDeck` types.
  private mutating func countTypes(_ line: DeckLine) -> DeckLine {
    let limit = Self.typesPerDeck
    switch line {
    case .card(let card) where !types.contains(card.type):
      guard types.count < limit else {
        return .problem("a type too many: a deck has at most \(limit) types")
      }
      types.insert(card.type)
    case .header(let header):
      let named = types.union(header.types.map(\.name))
      guard named.count <= limit else {
        return .problem("\(named.count) types: a deck has at most \(limit)")
      }
      types = named
    default: break
    }
    return line
  }

  /// The line, or the problem with its card's id or type or its header's type names.
  private static func checkNames(_ line: DeckLine) -> DeckLine {
    let problem: String? =
      switch line {
      case .card(let card): DeckName.problem(of: card)
      case .header(let header): DeckName.problem(of: header)
      case .blank, .problem: nil
      }
    return problem.map(DeckLine.problem) ?? line
  }

  /// Parses a non-blank line with the JSON decoder, which words every problem.
  func decode(_ bytes: UnsafeRawBufferPointer) -> DeckLine {
    if bytes.contains(0) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      return .problem("not valid JSON: a NUL byte or a UTF-16 mark; decks are UTF-8")
    }
    if Self.hasTrailingComma(bytes) { return .problem("not valid JSON: a comma before } or ]") }
    if JSONNesting.exceeds(bytes) {
      return .problem("not a card: arrays or objects nested over \(JSONNesting.limit) deep")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    do {
      let record = try decoder.decode(LineRecord.self, from: Data(text.utf8))
      return try record.line(headerAllowed: !sawContent)
    } catch let problem as LineProblem {
      return .problem(problem.message)
    } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
      return .problem("not a JSON object")
    } catch {
      return .problem("not valid JSON")
    }
  }

  /// Whether a `,` stands right before a `}` or `]` (spaces between), outside strings: JSON
  /// forbids it, and the decoder lets it pass.
  static func hasTrailingComma(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var strings = JSONStrings()
    var afterComma = false
    for byte in bytes {
      if strings.holds(byte) {
        afterComma = false
        continue
      }
      switch byte {
      case 0x2C: afterComma = true
      case 0x7D, 0x5D: if afterComma { return true }
      case 0x20, 0x09, 0x0D, 0x0A: continue
      default: afterComma = false
      }
    }
    return false
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }
}

/// A line is wrong: the message says how (`missing "body"`, `"title" must be a string`).
private struct LineProblem: Error {
  var message: String
}

/// Every field a deck line may have; unknown ones are never decoded.
private struct LineRecord: Decodable {
  enum Key: String, CodingKey {
    case id, type, title, body, source, url, reveal, deck, types
  }

  private var strings: [Key: String] = [:]
  private var header: DeckHeader?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let isHeader = container.contains(.types) || container.contains(.deck)
    if isHeader && !container.contains(.id) && !container.contains(.body) {
      header = try Self.header(container)
      return
    }
    for key in [Key.id, .type, .title, .body, .source, .url, .reveal] {
      strings[key] = try Self.string(key, in: container)
    }
  }

  func line(headerAllowed: Bool) throws(LineProblem) -> DeckLine {
    if let header {
      guard headerAllowed else { throw LineProblem(message: "a header must be the first line") }
      return .header(header)
    }
    for key in [Key.id, .type, .body] where strings[key] == nil {
      throw LineProblem(message: "missing \"\(key.rawValue)\"")
    }
    return .card(
      Card(
        id: strings[.id]!, type: strings[.type]!, title: strings[.title], body: strings[.body]!,
        source: strings[.source], url: strings[.url], reveal: strings[.reveal]))
  }

  /// A string field, nil when absent or null.
  private static func string<K: CodingKey>(
    _ key: K, in container: KeyedDecodingContainer<K>
  ) throws -> String? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    do {
      return try container.decode(String.self, forKey: key)
    } catch DecodingError.typeMismatch {
      throw LineProblem(message: "\"\(key.stringValue)\" must be a string")
    } catch {
      // A string JSON does not allow: a bad escape, a lone surrogate, a raw control character.
      throw LineProblem(message: "not valid JSON: \"\(key.stringValue)\" is not a valid string")
    }
  }

  private static func header(_ container: KeyedDecodingContainer<Key>) throws -> DeckHeader {
    let name = try string(.deck, in: container)
    guard container.contains(.types), try !container.decodeNil(forKey: .types) else {
      return DeckHeader(name: name, types: [])
    }
    let types: KeyedDecodingContainer<TypeKey>
    do {
      types = try container.nestedContainer(keyedBy: TypeKey.self, forKey: .types)
    } catch {
      throw LineProblem(message: "\"types\" must be an object")
    }
    let declared = try types.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
      try cardType($0, in: types)
    }
    return DeckHeader(name: name, types: declared)
  }

  private static func cardType(
    _ key: TypeKey, in types: KeyedDecodingContainer<TypeKey>
  ) throws -> CardType {
    let meta: KeyedDecodingContainer<MetaKey>
    do {
      meta = try types.nestedContainer(keyedBy: MetaKey.self, forKey: key)
    } catch {
      throw LineProblem(message: "type \"\(key.stringValue)\" must be an object")
    }
    do {
      return CardType(
        name: key.stringValue, label: try string(MetaKey.label, in: meta),
        colour: try string(MetaKey.colour, in: meta),
        description: try string(MetaKey.description, in: meta))
    } catch let problem as LineProblem {
      throw LineProblem(message: "type \"\(key.stringValue)\": \(problem.message)")
    }
  }

  private enum MetaKey: String, CodingKey {
    case label, colour, description
  }

  private struct TypeKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
