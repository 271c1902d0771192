/// One pass over a flat JSON object: the fast path of a decoder for the common shape of a deck
/// line or a pulled card. It gives up (nil) on anything but an object whose values are strings,
/// null, true, false or plain integers: nested values, fractions and exponents, `\u` escapes,
/// a key given twice, and any doubt; and on text that is not UTF-8, unless told to repair it as
/// `String(decoding:as:)` does (the caller's decoder then repairs it the same way). The caller's full JSON decoder then
/// reads the text and words any problem, so a fast path built on it gives the same value as that
/// decoder for every text it accepts (the `decks` and `pulls` fuzzers hold both to that).
///
/// JSONDecoder spends most of its time in its generic machinery, in a deck import and in a pull
/// alike (DECISIONS.md, "A flat-line fast path before JSONDecoder").
///
///     let keys = FlatJSONObject.keys(["id", "type", "body"])
///     let values = FlatJSONObject.values(of: keys, in: bytes)  // [.string("a1"), ..., nil]
public struct FlatJSONObject {
  /// A value the scan reads.
  public enum Value: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null

    /// A string, or nil inside for null or a key left out; nil for any other value.
    public static func text(_ value: Value?) -> String?? {
      switch value {
      case nil, .null?: .some(nil)
      case .string(let text)?: .some(text)
      default: nil
      }
    }
  }

  /// The keys' UTF-8 bytes, as `values(of:in:)` takes them.
  public static func keys(_ names: [String]) -> [[UInt8]] { names.map { Array($0.utf8) } }

  /// The value of each of `keys` in `bytes`, one JSON object with spaces around it allowed
  /// (nil for a key it leaves out). Nil for any text the scan does not take; an unknown key's
  /// value must be a string or null. `repairingUTF8`: a string that is not UTF-8 is repaired
  /// (U+FFFD), rather than left to the decoder.
  public static func values(
    of keys: [[UInt8]], in bytes: UnsafeRawBufferPointer, repairingUTF8: Bool = false
  ) -> [Value?]? {
    precondition(keys.count <= Int.bitWidth, "a flat object of at most \(Int.bitWidth) known keys")
    var scanner = FlatJSONObject(bytes: bytes, repairing: repairingUTF8)
    return scanner.scanObject(keys)
  }

  private let bytes: UnsafeRawBufferPointer
  private let repairing: Bool
  private var position = 0

  private init(bytes: UnsafeRawBufferPointer, repairing: Bool) {
    self.bytes = bytes
    self.repairing = repairing
  }

  private mutating func scanObject(_ keys: [[UInt8]]) -> [Value?]? {
    guard consume(UInt8(ascii: "{")) else { return nil }
    var values = [Value?](repeating: nil, count: keys.count)
    var seen = 0
    if !consume(UInt8(ascii: "}")) {
      repeat {
        guard let key = scanKey(keys), consume(UInt8(ascii: ":")), let value = scanValue() else {
          return nil
        }
        guard let slot = key else {
          // An unknown key's value, which the decoder skips: a string or null only.
          switch value {
          case .string, .null: continue
          default: return nil
          }
        }
        guard seen & (1 << slot) == 0 else { return nil }
        seen |= 1 << slot
        values[slot] = value
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")) else { return nil }
    }
    skipSpace()
    guard position == bytes.count else { return nil }
    return values
  }

  /// The slot of a known key, nil inside for an unknown key; nil for anything unexpected.
  private mutating func scanKey(_ keys: [[UInt8]]) -> Int?? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    let start = position
    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
      // Plain ASCII names only: another spelling of a known name is the decoder's to read.
      guard bytes[position] != UInt8(ascii: "\\"), (0x20..<0x80).contains(bytes[position]) else {
        return nil
      }
      position += 1
    }
    guard position < bytes.count else { return nil }
    let key = bytes[start..<position]
    position += 1
    return .some(keys.firstIndex { $0.elementsEqual(key) })
  }

  private mutating func scanValue() -> Value? {
    skipSpace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "\""): return scanString().map(Value.string)
    case UInt8(ascii: "n"): return literal("null", .null)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanInteger()
    default: return nil
    }
  }

  private mutating func literal(_ word: StaticString, _ value: Value) -> Value? {
    let count = word.utf8CodeUnitCount
    guard bytes.count - position >= count,
      bytes[position..<(position + count)].elementsEqual(
        UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { return nil }
    position += count
    return endsValue() ? value : nil
  }

  /// `-?[1-9][0-9]*` or `0`, at most 18 digits (so it cannot overflow), ending the value: a
  /// fraction, an exponent, `-0` or a leading zero are the decoder's.
  private mutating func scanInteger() -> Value? {
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    let start = position
    var value: Int64 = 0
    while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
      guard position - start < 18 else { return nil }
      value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
      position += 1
    }
    let digits = position - start
    guard digits > 0, bytes[start] != UInt8(ascii: "0") || (digits == 1 && !negative),
      endsValue()
    else { return nil }
    return .integer(negative ? -value : value)
  }

  /// Whether the next byte (after spaces) may follow a value in an object.
  private mutating func endsValue() -> Bool {
    skipSpace()
    return position < bytes.count
      && (bytes[position] == UInt8(ascii: ",") || bytes[position] == UInt8(ascii: "}"))
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
        guard var escaped else { return text(tail) }
        escaped.append(contentsOf: tail)
        return escaped.withUnsafeBytes(text)
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

  private func text(_ utf8: UnsafeRawBufferPointer) -> String? {
    repairing ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
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
