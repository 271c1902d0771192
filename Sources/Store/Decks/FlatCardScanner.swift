import FeedCore

/// The fast path of `DeckParser` for the common line: a flat JSON object whose values are
/// strings or null. It returns nil for anything else (nested values, numbers, `\u` escapes,
/// a missing field, any doubt), and the full JSON decoder then parses the line and words
/// any problem, so both paths give the same card for every line the fast path accepts.
///
/// JSONDecoder spends most of a 1,000,000-card import in its generic machinery; this scan
/// makes a single pass over the bytes.
struct FlatCardScanner {
  private let bytes: UnsafeRawBufferPointer
  private var position = 0

  static func card(_ bytes: UnsafeRawBufferPointer) -> Card? {
    var scanner = FlatCardScanner(bytes: bytes)
    return scanner.scanCard()
  }

  private init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The fields a card line may have, in the order of `Card.init`.
  private static let keys = ["id", "type", "title", "body", "source", "url", "reveal"].map {
    Array($0.utf8)
  }

  private mutating func scanCard() -> Card? {
    guard consume(UInt8(ascii: "{")) else { return nil }
    var values = [String?](repeating: nil, count: Self.keys.count)
    var seen = 0
    if !consume(UInt8(ascii: "}")) {
      repeat {
        guard let key = scanKey(), consume(UInt8(ascii: ":")), let value = scanValue() else {
          return nil
        }
        guard let slot = key else { continue }
        guard seen & (1 << slot) == 0 else { return nil }
        seen |= 1 << slot
        values[slot] = value
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")) else { return nil }
    }
    skipSpace()
    guard position == bytes.count, let id = values[0], let type = values[1],
      let body = values[3]
    else { return nil }
    return Card(
      id: id, type: type, title: values[2], body: body, source: values[4], url: values[5],
      reveal: values[6])
  }

  /// The slot of a known key, nil inside for an unknown key; nil for anything unexpected.
  private mutating func scanKey() -> Int?? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    let start = position
    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
      guard bytes[position] != UInt8(ascii: "\\"), bytes[position] >= 0x20 else { return nil }
      position += 1
    }
    guard position < bytes.count else { return nil }
    let key = bytes[start..<position]
    position += 1
    return .some(Self.keys.firstIndex { $0.elementsEqual(key) })
  }

  /// A string, or nil inside for null; nil for any other value.
  private mutating func scanValue() -> String?? {
    skipSpace()
    if bytes[position...].starts(with: "null".utf8) {
      position += 4
      return .some(nil)
    }
    return scanString().map { .some($0) }
  }

  private mutating func scanString() -> String? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    var escaped: [UInt8]? = nil
    var start = position
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        let tail = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        position += 1
        guard var escaped else { return String(decoding: tail, as: UTF8.self) }
        escaped.append(contentsOf: tail)
        return String(decoding: escaped, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position + 1 < bytes.count, let plain = Self.unescape(bytes[position + 1]) else {
          return nil
        }
        escaped = (escaped ?? []) + bytes[start..<position] + [plain]
        position += 2
        start = position
      case ..<0x20:
        return nil
      default:
        position += 1
      }
    }
    return nil
  }

  private static func unescape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "t"): 0x09
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    default: nil
    }
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    skipSpace()
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  private mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }
}
