/// Follows a JSON text byte by byte and says which bytes belong to a string literal (its quotes
/// and escapes included), so that a scan of the structure (brackets, commas) can skip them.
///
///     var strings = JSONStrings()
///     for byte in text where !strings.holds(byte) { /* brackets, commas, spaces */ }
public struct JSONStrings: Sendable {
  private var inString = false
  private var escaped = false

  public init() {}

  /// Whether `byte`, the next byte of the text, is part of a string literal.
  public mutating func holds(_ byte: UInt8) -> Bool {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      return true
    }
    inString = byte == UInt8(ascii: "\"")
    return inString
  }
}
