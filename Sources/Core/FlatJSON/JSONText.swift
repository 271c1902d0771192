/// JSON text written by hand, for output that must be exactly these bytes (an analytics event is
/// sent byte for byte as recorded) or cheap (`ctfo next --json`): strings escaped on their
/// UTF-8 bytes, controls as `\u00XX`. C1 controls, bidi controls and the line and paragraph
/// separators are escaped too (`\u009b`, `\u202e`): JSON read in a terminal or a pager
/// must not carry a raw control sequence or reorder the text around it.
public enum JSONText {
  /// Appends a JSON string literal for `text` (`null` for nil).
  public static func append(_ text: String?, to buffer: inout [UInt8]) {
    guard var text else { return buffer.append(contentsOf: "null".utf8) }
    buffer.append(0x22)
    text.withUTF8 { bytes in
      var i = 0
      while i < bytes.count {
        let byte = bytes[i]
        i += 1
        switch byte {
        case 0x22: buffer.append(contentsOf: [0x5C, 0x22])
        case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
        case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
        case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
        case ..<0x20, 0x7F: buffer.append(contentsOf: unicodeEscape(UInt32(byte)))
        case 0xC2, 0xD8, 0xE2:
          // The lead bytes of C1 (U+0080-U+009F), U+061C and U+2000-U+2FFF.
          let length = byte == 0xE2 ? 3 : 2
          guard i + length - 1 <= bytes.count else {
            buffer.append(byte)
            continue
          }
          let scalar = bytes[(i - 1)..<(i - 1 + length)].dropFirst().reduce(
            UInt32(byte & (length == 2 ? 0x1F : 0x0F))
          ) { $0 << 6 | UInt32($1 & 0x3F) }
          if isEscaped(scalar) {
            buffer.append(contentsOf: unicodeEscape(scalar))
            i += length - 1
          } else {
            buffer.append(byte)
          }
        default: buffer.append(byte)
        }
      }
    }
    buffer.append(0x22)
  }

  /// The characters above ASCII written as escapes: C1 controls, the bidi controls (ALM, LRM,
  /// RLM, the embeddings, overrides and isolates) and the line and paragraph separators.
  static func isEscaped(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(text.utf8.count + 2)
    append(text, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  /// `\uXXXX` for a scalar of the Basic Multilingual Plane, lower-case hex.
  private static func unicodeEscape(_ scalar: UInt32) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    return [0x5C, 0x75] + [12, 8, 4, 0].map { hex[Int(scalar >> $0 & 0xF)] }
  }
}
